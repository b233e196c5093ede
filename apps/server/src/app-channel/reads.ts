/**
 * What a parent reads, each limited to the parent's own children and their schools: the children
 * (school, class, photo), their recognitions on a China-time day, the notices and help meant for
 * parents, the parent's payments and refund applications. Photos and snapshots leave as signed,
 * expiring addresses (platform/media-urls.ts).
 */
import { NOTICE_AUDIENCE_OPTIONS, formatBusinessDate, type AppChild, type AppRecognitions } from '@campus/contract';
import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Executor } from '../db/client.js';
import type { MediaUrlSigner } from '../platform/media-urls.js';
import type { AppParent } from './sessions.js';

const iso = (value: unknown) => (value instanceof Date ? value : new Date(String(value))).toISOString();
const dateText = (value: unknown) => (value === null || value === undefined ? null : value instanceof Date ? value.toISOString().slice(0, 10) : String(value).slice(0, 10));
const numberOrNull = (value: unknown) => (value === null || value === undefined ? null : Number(value));
const idList = (ids: readonly number[]) => sql.join(ids.map((id) => sql`${id}`), sql`, `);

/** Audiences of a SysNotice a parent reads: everyone's and the parents'. */
const PARENT_AUDIENCES = NOTICE_AUDIENCE_OPTIONS.filter((option) => option.en === 'Everyone' || option.en === 'Parents').map((option) => option.value);

/** The parent's children with school, class and a signed photo address. */
export async function childrenOf(db: Executor, parent: AppParent, signer: MediaUrlSigner): Promise<AppChild[]> {
  if (parent.children.length === 0) return [];
  const rows = await rowsOf(
    db,
    sql`select st.id, st.name, st.school_id as "schoolId", sc.school_name as "schoolName", st.class_id as "classId", cl.class_name as "className", st.face_image as "photo"
      from students st join schools sc on sc.id = st.school_id left join school_classes cl on cl.id = st.class_id
      where st.id in (${idList(parent.children.map((child) => child.id))}) order by st.id`,
  );
  return rows.map((row) => ({
    id: Number(row.id),
    name: String(row.name),
    schoolId: Number(row.schoolId),
    schoolName: String(row.schoolName),
    classId: numberOrNull(row.classId),
    className: row.className === null ? null : String(row.className),
    photo: row.photo ? signer.sign(String(row.photo)) : null,
  }));
}

/** The instants a China-time day starts and ends at ('YYYY-MM-DD', +08:00 all year). */
export function businessDayBounds(day: string): { from: Date; to: Date } {
  const from = new Date(`${day}T00:00:00+08:00`);
  return { from, to: new Date(from.getTime() + 86_400_000) };
}

/**
 * A child's recognitions at the gates on one day, oldest first, with the day's arrival (its first
 * "in") and departure (its last "out"). Reads the (school, person, time) index of the partitioned
 * table within the day, so one child's day costs the same however large the table grows.
 */
export async function recognitionsOf(db: Executor, child: { id: number; schoolId: number }, day: string, signer: MediaUrlSigner): Promise<AppRecognitions> {
  const { from, to } = businessDayBounds(day);
  const rows = await rowsOf(
    db,
    sql`select id, recognized_at as "recognizedAt", direction, temperature, snapshot from recognition_records
      where school_id = ${child.schoolId} and person_kind = 1 and person_id = ${child.id}
        and recognized_at >= ${from.toISOString()}::timestamptz and recognized_at < ${to.toISOString()}::timestamptz
        and success and not coalesce(hidden, false)
      order by recognized_at, id limit 200`,
  );
  const items = rows.map((row) => ({
    id: Number(row.id),
    recognizedAt: iso(row.recognizedAt),
    direction: Number(row.direction),
    temperature: numberOrNull(row.temperature),
    snapshot: row.snapshot ? signer.sign(String(row.snapshot)) : null,
  }));
  return { date: day, arrival: items.find((item) => item.direction === 1) ?? null, departure: items.findLast((item) => item.direction === 2) ?? null, items };
}

/** Notices for parents (or everyone) whose period holds today, newest first. */
export async function schoolNoticesFor(db: Executor, now: Date) {
  const today = formatBusinessDate(now);
  const rows = await rowsOf(
    db,
    sql`select id, title, content, start_date as "startDate", end_date as "endDate", created_at as "createdAt" from sys_notices
      where audience in (${idList(PARENT_AUDIENCES)}) and start_date <= ${today} and end_date >= ${today}
      order by start_date desc, id desc limit 50`,
  );
  return rows.map((row) => ({ id: Number(row.id), title: String(row.title), content: String(row.content), startDate: dateText(row.startDate), endDate: dateText(row.endDate), createdAt: iso(row.createdAt) }));
}

/** The published help articles, in their order. */
export async function helpArticles(db: Executor) {
  const rows = await rowsOf(db, sql`select id, category, title, content from user_helps where coalesce(published, false) order by sort, id limit 200`);
  return rows.map((row) => ({ id: Number(row.id), category: Number(row.category), title: String(row.title), content: String(row.content) }));
}

/**
 * The parent's payments for its children's schools, newest first, paged: the school leads, so the
 * (school, parent, paid time) index answers.
 */
export async function paymentsOf(db: Executor, parent: AppParent, page: { page: number; size: number }) {
  if (parent.schoolIds.length === 0) return { rows: [], total: 0 };
  const mine = sql`p.school_id in (${idList(parent.schoolIds)}) and p.parent_id = ${parent.id}`;
  const rows = await rowsOf(
    db,
    sql`select p.id, p.out_trade_no as "outTradeNo", p.paid_at as "paidAt", p.amount, p.refunded_amount as "refundedAmount", p.student_id as "studentId",
        p.charge_item_id as "chargeItemId", ci.name as "chargeItemName", p.service_from as "serviceFrom", p.service_to as "serviceTo", count(*) over () as total
      from payment_records p left join app_charge_items ci on ci.id = p.charge_item_id
      where ${mine} order by p.paid_at desc, p.id desc limit ${page.size} offset ${(page.page - 1) * page.size}`,
  );
  return {
    rows: rows.map((row) => ({
      id: Number(row.id),
      outTradeNo: String(row.outTradeNo),
      paidAt: iso(row.paidAt),
      amount: Number(row.amount),
      refundedAmount: Number(row.refundedAmount),
      studentId: numberOrNull(row.studentId),
      chargeItemId: numberOrNull(row.chargeItemId),
      chargeItemName: row.chargeItemName === null ? null : String(row.chargeItemName),
      serviceFrom: dateText(row.serviceFrom),
      serviceTo: dateText(row.serviceTo),
    })),
    total: Number(rows[0]?.total ?? (page.page === 1 ? 0 : await countOf(db, sql`select count(*) as n from payment_records p where ${mine}`))),
  };
}

/** The refund applications of the parent's payments, newest first, paged. */
export async function refundsOf(db: Executor, parent: AppParent, page: { page: number; size: number }) {
  if (parent.schoolIds.length === 0) return { rows: [], total: 0 };
  const mine = sql`p.school_id in (${idList(parent.schoolIds)}) and p.parent_id = ${parent.id}`;
  const rows = await rowsOf(
    db,
    sql`select r.id, r.payment_id as "paymentId", p.out_trade_no as "outTradeNo", r.reason, r.state, r.refund_amount as "refundAmount", r.created_at as "createdAt", count(*) over () as total
      from refunds r join payment_records p on p.id = r.payment_id
      where ${mine} order by r.id desc limit ${page.size} offset ${(page.page - 1) * page.size}`,
  );
  return {
    rows: rows.map((row) => ({
      id: Number(row.id),
      paymentId: Number(row.paymentId),
      outTradeNo: String(row.outTradeNo),
      reason: String(row.reason),
      state: Number(row.state),
      refundAmount: numberOrNull(row.refundAmount),
      createdAt: iso(row.createdAt),
    })),
    total: Number(rows[0]?.total ?? (page.page === 1 ? 0 : await countOf(db, sql`select count(*) as n from refunds r join payment_records p on p.id = r.payment_id where ${mine}`))),
  };
}

async function countOf(db: Executor, query: SQL): Promise<number> {
  const [row] = await rowsOf(db, query);
  return Number(row?.n ?? 0);
}

/** The names of the parent's children, by id. */
export async function childrenNames(db: Executor, parent: AppParent): Promise<Map<number, string>> {
  if (parent.children.length === 0) return new Map();
  const rows = await rowsOf(db, sql`select id, name from students where id in (${idList(parent.children.map((child) => child.id))})`);
  return new Map(rows.map((row) => [Number(row.id), String(row.name)]));
}
