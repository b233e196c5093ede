/**
 * The safe-campus service a child holds and the parents receiving its notices (docs/decisions.md
 * "The safe-campus service"): the child's paid end (student_services), moved by payments, refunds and
 * the console's Extend; the bindings (service_receivers) of which the first `parentCount` active ones
 * receive; a trial per binding from the parent's first bind. Everything runs in the caller's
 * transaction; the engine's updateRecords moves a service's end (version, operation log).
 */
import { StudentService, addDays, formatBusinessDate, type ServiceState } from '@campus/contract';
import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { updateRecords } from '../resources/engine/services.js';
import { dateText, daysBetween, laterDate } from './dates.js';

type Rows<T = Record<string, unknown>> = { rows: T[] };

/** Modes whose parents receive without paying: the school pays, or the service is free. */
export const FREE_MODES = [2, 3] as const;
const FREE_MODES_SQL = sql.raw(FREE_MODES.join(', '));

/** Ids as a SQL list for `in (…)` (never empty: callers return early on none). */
export const idList = (ids: readonly number[]): SQL => sql.join(
  ids.map((id) => sql`${id}`),
  sql`, `,
);

/** What a parent holds for one child, as the app shows it. */
export interface HeldService {
  studentId: number;
  schoolId: number;
  state: ServiceState;
  serviceTo: string | null;
  trialTo: string | null;
  trialDaysLeft: number;
  receiving: boolean;
}

/** The state of a binding on `today`: free by the school's mode, paid, in trial, lapsed (had either) or none. */
export function serviceStateOf(held: { freeMode: boolean; serviceTo: string | null; trialTo: string | null }, today: string): ServiceState {
  if (held.freeMode) return 'free';
  if (held.serviceTo !== null && held.serviceTo >= today) return 'inService';
  if (held.trialTo !== null && held.trialTo >= today) return 'trial';
  return held.serviceTo !== null || held.trialTo !== null ? 'lapsed' : 'none';
}

/** The services `parentId` holds for `studentIds` on `today` (students that do not exist are left out). */
export async function serviceStatesOf(db: Executor, parentId: number, studentIds: number[], today: string): Promise<HeldService[]> {
  if (studentIds.length === 0) return [];
  const found = (await db.execute(sql`
    select s.id as "studentId", s.school_id as "schoolId", ss.service_to as "serviceTo", r.trial_to as "trialTo",
      coalesce(r.receiving and r.active, false) as receiving, coalesce(c.enabled and c.mode in (${FREE_MODES_SQL}), false) as "freeMode"
    from students s
    left join student_services ss on ss.student_id = s.id
    left join service_receivers r on r.student_id = s.id and r.parent_id = ${parentId}
    left join service_configs c on c.school_id = s.school_id
    where s.id in (${idList(studentIds)})
    order by s.id`)) as unknown as Rows;
  return found.rows.map((row) => {
    const serviceTo = dateText(row.serviceTo);
    const trialTo = dateText(row.trialTo);
    const state = serviceStateOf({ freeMode: row.freeMode === true, serviceTo, trialTo }, today);
    return {
      studentId: Number(row.studentId),
      schoolId: Number(row.schoolId),
      state,
      serviceTo,
      trialTo,
      trialDaysLeft: state === 'trial' && trialTo !== null ? daysBetween(today, trialTo) + 1 : 0,
      receiving: row.receiving === true,
    };
  });
}

/** A charge item a parent may buy. */
export interface ChargeItemOffer {
  id: number;
  name: string;
  unitPrice: number;
  serviceMonths: number;
  remark: string | null;
}

/** The enabled charge items parents of `schoolId` can buy: none unless the school's config is enabled and its parents pay. */
export async function chargeItemsFor(db: Executor, schoolId: number): Promise<ChargeItemOffer[]> {
  const found = (await db.execute(sql`
    select i.id, i.name, i.unit_price as "unitPrice", i.service_months as "serviceMonths", i.remark
    from app_charge_items i
    where i.enabled and exists (select 1 from service_configs c where c.school_id = ${schoolId} and c.enabled and c.mode = 1)
    order by i.unit_price, i.id`)) as unknown as Rows;
  return found.rows.map((row) => ({
    id: Number(row.id),
    name: String(row.name),
    unitPrice: Number(row.unitPrice),
    serviceMonths: Number(row.serviceMonths),
    remark: row.remark === null ? null : String(row.remark),
  }));
}

/**
 * Brings the bindings of one child in line with its linked, enabled parents, under a lock on the
 * student row (concurrent binds of one child queue here; NO KEY UPDATE, because the binds' link rows
 * already hold the student's KEY SHARE lock through their foreign key, and FOR UPDATE against two of
 * those deadlocks): parents newly linked are bound at the back
 * of the queue (a trial of the school's `tryDays` on their first bind only), parents gone (unlinked,
 * disabled, or `leaving`) lose their place, and the first `parentCount` active bindings by bind time
 * receive (0 = every parent).
 */
export async function bindReceivingParents(tx: Executor, studentId: number, options: { leaving?: readonly number[]; now?: Date } = {}): Promise<void> {
  const now = options.now ?? new Date();
  const student = (await tx.execute(sql`
    select s.school_id as "schoolId", coalesce(c.parent_count, 0) as "parentCount", coalesce(c.try_days, 0) as "tryDays"
    from students s left join service_configs c on c.school_id = s.school_id
    where s.id = ${studentId} for no key update of s`)) as unknown as Rows;
  const found = student.rows[0];
  if (!found) return;
  const schoolId = Number(found.schoolId);
  const parentCount = Number(found.parentCount);
  const tryDays = Number(found.tryDays);
  const leaving = options.leaving ?? [];
  const linked = (await tx.execute(sql`
    select p.id from parent_students ps join parents p on p.id = ps.parent_id
    where ps.student_id = ${studentId} and p.enabled ${leaving.length > 0 ? sql`and p.id not in (${idList(leaving)})` : sql``}`)) as unknown as Rows;
  const linkedIds = linked.rows.map((row) => Number(row.id));
  const stillLinked = linkedIds.length > 0 ? sql`parent_id not in (${idList(linkedIds)})` : sql`true`;
  await tx.execute(sql`update service_receivers set active = false, receiving = false where student_id = ${studentId} and active and ${stillLinked}`);
  if (linkedIds.length > 0) {
    const trialTo = tryDays > 0 ? addDays(formatBusinessDate(now), tryDays - 1) : null;
    // A parent coming back goes to the back of the queue; its trial stays the one of its first bind.
    await tx.execute(sql`
      insert into service_receivers (bound_at, parent_id, student_id, school_id, active, receiving, trial_to)
      select ${now.toISOString()}::timestamptz, p, ${studentId}, ${schoolId}, true, false, ${trialTo}::date
      from (values ${sql.join(
        linkedIds.map((id) => sql`(${id}::int)`),
        sql`, `,
      )}) as v(p)
      on conflict (parent_id, student_id) do update set active = true, bound_at = excluded.bound_at, school_id = excluded.school_id
      where not service_receivers.active`);
  }
  await tx.execute(sql`
    update service_receivers r set receiving = q.place <= ${parentCount} or ${parentCount} = 0
    from (select id, row_number() over (order by bound_at, id) as place from service_receivers where student_id = ${studentId} and active) q
    where r.id = q.id and r.receiving is distinct from (q.place <= ${parentCount} or ${parentCount} = 0)`);
}

/** Re-binds every child of the given parents (theirs now, and those they were bound to), in student order so concurrent calls lock alike. */
export async function bindChildrenOfParents(tx: Executor, parentIds: readonly number[], options: { leaving?: readonly number[]; now?: Date } = {}): Promise<void> {
  if (parentIds.length === 0) return;
  const children = (await tx.execute(sql`
    select student_id as id from parent_students where parent_id in (${idList(parentIds)})
    union select student_id from service_receivers where parent_id in (${idList(parentIds)})
    order by 1`)) as unknown as Rows;
  for (const row of children.rows) await bindReceivingParents(tx, Number(row.id), options);
}

/** Re-binds every child of a school that has bindings (its `parentCount` changed). */
export async function bindChildrenOfSchool(tx: Executor, schoolId: number, now?: Date): Promise<void> {
  const children = (await tx.execute(sql`select distinct student_id as id from service_receivers where school_id = ${schoolId} order by 1`)) as unknown as Rows;
  for (const row of children.rows) await bindReceivingParents(tx, Number(row.id), { now });
}

/** The child's service row, created empty when missing, locked for the change about to be made. */
async function lockService(tx: Executor, studentId: number): Promise<{ id: number; serviceTo: string | null } | undefined> {
  await tx.execute(sql`
    insert into student_services (student_id, school_id, student_name) select id, school_id, name from students where id = ${studentId}
    on conflict (student_id) do nothing`);
  const found = (await tx.execute(sql`select id, service_to as "serviceTo" from student_services where student_id = ${studentId} for update`)) as unknown as Rows;
  const row = found.rows[0];
  return row ? { id: Number(row.id), serviceTo: dateText(row.serviceTo) } : undefined;
}

/** Moves a service's end through the engine (version, and the operation log when a user did it). */
async function setServiceEnd(tx: Executor, serviceId: number, serviceTo: string, reason: string, log?: { userId: number; action: string; changes: Record<string, unknown> }): Promise<void> {
  await updateRecords(tx, StudentService, [serviceId], { values: { serviceTo, lastReason: reason.slice(0, 500) }, ...(log ? { log } : {}) });
}

/**
 * The period a payment of `months` buys for a child on `paidDay`: from the later of that day and the
 * day after the current end. Locks the child's service until the caller's transaction ends.
 */
export async function servicePeriodFor(tx: Executor, studentId: number, paidDay: string, months: number, end: (from: string, months: number) => string): Promise<{ from: string; to: string } | undefined> {
  const service = await lockService(tx, studentId);
  if (!service) return undefined;
  const from = laterDate(paidDay, service.serviceTo === null ? null : addDays(service.serviceTo, 1))!;
  return { from, to: end(from, months) };
}

/** Extends a child's service to `serviceTo` for a stored payment (never shortens it). */
export async function extendServiceForPayment(tx: Executor, studentId: number, serviceTo: string, outTradeNo: string): Promise<void> {
  const service = await lockService(tx, studentId);
  if (!service || (service.serviceTo !== null && service.serviceTo >= serviceTo)) return;
  await setServiceEnd(tx, service.id, serviceTo, `支付 ${outTradeNo}`);
}

/**
 * Shortens the service a payment bought by the refunded share of its period: a refund of a third of
 * the amount takes a third of the days (rounded) off the child's end; a full refund takes them all.
 */
export async function shortenServiceForRefund(tx: Executor, paymentId: number, refundAmount: number): Promise<void> {
  const found = (await tx.execute(sql`
    select student_id as "studentId", service_from as "serviceFrom", service_to as "serviceTo", amount, out_trade_no as "outTradeNo"
    from payment_records where id = ${paymentId}`)) as unknown as Rows;
  const payment = found.rows[0];
  const from = dateText(payment?.serviceFrom);
  const to = dateText(payment?.serviceTo);
  if (!payment || payment.studentId === null || from === null || to === null || Number(payment.amount) <= 0) return;
  const days = Math.round(((daysBetween(from, to) + 1) * refundAmount) / Number(payment.amount));
  const service = await lockService(tx, Number(payment.studentId));
  if (!service || service.serviceTo === null || days <= 0) return;
  await setServiceEnd(tx, service.id, addDays(service.serviceTo, -days), `退款 ${String(payment.outTradeNo)}`);
}

/**
 * The console's grant: `days` more from the later of today and the current end (fewer, when
 * negative, from the current end), with the operator's reason in the operation log.
 */
export async function extendServiceByHand(tx: Executor, serviceId: number, input: { days: number; reason: string; today: string; userId: number }): Promise<{ serviceTo: string }> {
  const found = (await tx.execute(sql`select service_to as "serviceTo" from student_services where id = ${serviceId} for update`)) as unknown as Rows;
  const current = dateText(found.rows[0]?.serviceTo);
  const yesterday = addDays(input.today, -1);
  const serviceTo = input.days > 0 ? addDays(laterDate(current, yesterday)!, input.days) : addDays(current ?? yesterday, input.days);
  await setServiceEnd(tx, serviceId, serviceTo, input.reason, { userId: input.userId, action: 'extend', changes: { serviceTo: [current, serviceTo], days: [null, input.days], reason: [null, input.reason] } });
  return { serviceTo };
}
