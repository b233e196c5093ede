/**
 * Coupons: granted by a send (one grant per target parent and send) or a parent's claim, redeemed by
 * at most one order, inside the coupon's dates and scope. litemall and macrozheng/mall count, then
 * insert, and over-issue under concurrent claims; here every grant first locks the coupon's row
 * (claims and sends of one coupon run one after the other), the issued count only moves with the
 * grants in one conditional statement (`issued + n <= total`), and the database refuses `issued >
 * total` besides (a check constraint).
 */
import {
  COUPON_ACTIVE,
  COUPON_GRANT_UNUSED,
  COUPON_GRANT_USED,
  COUPON_KIND_AMOUNT,
  COUPON_SCOPE_ALL,
  COUPON_SCOPE_CATEGORIES,
  COUPON_TARGET_ALL,
  COUPON_TARGET_GRADES,
  COUPON_TARGET_PARENTS,
  COUPON_TARGET_SCHOOLS,
  formatBusinessDate,
} from '@campus/contract';
import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { badRequest, conflict, msg, notFound } from '../platform/errors.js';

type Rows = { rows: Record<string, unknown>[] };

/** A coupon as redeeming and granting read it. */
export interface CouponRow {
  id: number;
  state: number;
  scope: number;
  kind: number;
  amountOff: number | null;
  discountPercent: number | null;
  threshold: number;
  total: number;
  issued: number;
  perParentLimit: number;
  startDate: string;
  endDate: string;
  targetKind: number;
  grade: number | null;
}

const COUPON_COLUMNS = sql`id, state, scope, kind, amount_off as "amountOff", discount_percent as "discountPercent", coalesce(threshold, 0) as threshold, total,
  coalesce(issued, 0) as issued, per_parent_limit as "perParentLimit", start_date::text as "startDate", end_date::text as "endDate", target_kind as "targetKind", grade`;

function toCoupon(row: Record<string, unknown>): CouponRow {
  const numberOrNull = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  return {
    id: Number(row.id),
    state: Number(row.state),
    scope: Number(row.scope),
    kind: Number(row.kind),
    amountOff: numberOrNull(row.amountOff),
    discountPercent: numberOrNull(row.discountPercent),
    threshold: Number(row.threshold),
    total: Number(row.total),
    issued: Number(row.issued),
    perParentLimit: Number(row.perParentLimit),
    startDate: String(row.startDate),
    endDate: String(row.endDate),
    targetKind: Number(row.targetKind),
    grade: numberOrNull(row.grade),
  };
}

/** The coupon, locked until the caller's transaction ends: every grant of it goes through this lock. */
async function lockCoupon(tx: Executor, couponId: number): Promise<CouponRow> {
  const found = (await tx.execute(sql`select ${COUPON_COLUMNS} from coupons where id = ${couponId} for update`)) as unknown as Rows;
  if (!found.rows[0]) throw notFound();
  return toCoupon(found.rows[0]);
}

/** Whether the coupon may be granted or used on `day` (China time): active and inside its dates. */
const isOpenOn = (coupon: CouponRow, day: string) => coupon.state === COUPON_ACTIVE && coupon.startDate <= day && day <= coupon.endDate;

/** The parents (alias `p`) a coupon targets: all, its schools, its schools' parents of a child in its grade, or those chosen. */
function targetedParents(coupon: CouponRow): SQL {
  const inSchools = sql`p.school_id in (select school_id from coupon_schools where coupon_id = ${coupon.id})`;
  switch (coupon.targetKind) {
    case COUPON_TARGET_ALL:
      return sql`true`;
    case COUPON_TARGET_SCHOOLS:
      return inSchools;
    case COUPON_TARGET_GRADES:
      return sql`${inSchools} and exists (
        select 1 from parent_students ps join students s on s.id = ps.student_id join school_classes c on c.id = s.class_id
        where ps.parent_id = p.id and c.grade = ${coupon.grade ?? -1})`;
    case COUPON_TARGET_PARENTS:
      return sql`p.id in (select parent_id from coupon_parents where coupon_id = ${coupon.id})`;
    default:
      return sql`false`;
  }
}

/** The grants a parent already holds of the coupon (used or not): the per-parent limit counts them all. */
const heldOf = (couponId: number) => sql`(select count(*) from coupon_grants g where g.coupon_id = ${couponId} and g.parent_id = p.id)`;

/**
 * A parent claims a coupon in the app: one more grant while the coupon is open, targets the parent,
 * has some left and the parent holds fewer than its limit. Answers the grant's id.
 */
export async function claimCoupon(tx: Executor, parentId: number, couponId: number, now: Date): Promise<{ grantId: number }> {
  const coupon = await lockCoupon(tx, couponId);
  if (!isOpenOn(coupon, formatBusinessDate(now))) throw conflict(msg('mall.couponNotUsable'));
  const parent = (await tx.execute(sql`
    select p.id, ${heldOf(coupon.id)}::int as held from parents p where p.id = ${parentId} and p.enabled and ${targetedParents(coupon)}`)) as unknown as Rows;
  if (!parent.rows[0]) throw conflict(msg('mall.couponNotForYou'));
  const held = Number(parent.rows[0].held);
  if (held >= coupon.perParentLimit) throw conflict(msg('mall.couponLimit', { limit: coupon.perParentLimit }));
  const issued = (await tx.execute(sql`update coupons set issued = issued + 1 where id = ${coupon.id} and issued < total returning id`)) as unknown as Rows;
  if (!issued.rows[0]) throw conflict(msg('mall.couponSoldOut'));
  const inserted = (await tx.execute(sql`
    insert into coupon_grants (granted_at, coupon_id, parent_id, school_id, grant_key, state)
    select ${now.toISOString()}::timestamptz, ${coupon.id}, p.id, p.school_id, ${`claim:${held + 1}`}, ${COUPON_GRANT_UNUSED} from parents p where p.id = ${parentId}
    returning id`)) as unknown as Rows;
  return { grantId: Number(inserted.rows[0]!.id) };
}

/**
 * Sends a coupon: one grant to each target parent holding fewer than the limit and none of this send
 * (`sendKey`, so a repeated send with the same key grants nothing twice), at most what is left of the
 * total (the lowest parent ids first). Answers how many were granted.
 */
export async function sendCoupon(tx: Executor, couponId: number, sendKey: string, now: Date): Promise<{ granted: number }> {
  const coupon = await lockCoupon(tx, couponId);
  if (coupon.state !== COUPON_ACTIVE) throw conflict(msg('mall.couponDisabled'));
  if (formatBusinessDate(now) > coupon.endDate) throw conflict(msg('mall.couponNotUsable'));
  const left = coupon.total - coupon.issued;
  if (left <= 0) return { granted: 0 };
  const inserted = (await tx.execute(sql`
    insert into coupon_grants (granted_at, coupon_id, parent_id, school_id, grant_key, state)
    select ${now.toISOString()}::timestamptz, ${coupon.id}, p.id, p.school_id, ${sendKey}, ${COUPON_GRANT_UNUSED}
    from parents p
    where p.enabled and ${targetedParents(coupon)} and ${heldOf(coupon.id)} < ${coupon.perParentLimit}
      and not exists (select 1 from coupon_grants s where s.coupon_id = ${coupon.id} and s.parent_id = p.id and s.grant_key = ${sendKey})
    order by p.id limit ${left}
    on conflict (coupon_id, parent_id, grant_key) do nothing
    returning id`)) as unknown as Rows;
  const granted = inserted.rows.length;
  if (granted > 0) {
    const moved = (await tx.execute(sql`update coupons set issued = issued + ${granted} where id = ${coupon.id} and issued + ${granted} <= total returning id`)) as unknown as Rows;
    if (!moved.rows[0]) throw conflict(msg('mall.couponSoldOut'));
  }
  return { granted };
}

/** A line of an order as the coupon's scope reads it. */
export interface CouponLine {
  commodityId: number;
  categoryId: number;
  amount: number;
}

/** The discount a coupon gives on an order's lines (in fen); refuses (field `couponGrantId`) an order outside its scope or below its threshold. */
export async function couponDiscount(db: Executor, coupon: CouponRow, lines: readonly CouponLine[]): Promise<number> {
  let eligible = lines;
  if (coupon.scope !== COUPON_SCOPE_ALL) {
    const link = coupon.scope === COUPON_SCOPE_CATEGORIES ? sql`select category_id as id from coupon_categories where coupon_id = ${coupon.id}` : sql`select commodity_id as id from coupon_commodities where coupon_id = ${coupon.id}`;
    const ids = new Set(((await db.execute(link)) as unknown as Rows).rows.map((row) => Number(row.id)));
    eligible = lines.filter((line) => ids.has(coupon.scope === COUPON_SCOPE_CATEGORIES ? line.categoryId : line.commodityId));
  }
  const base = eligible.reduce((sum, line) => sum + line.amount, 0);
  if (base === 0) throw badRequest([{ path: 'couponGrantId', ...msg('mall.couponOutOfScope') }]);
  if (base < coupon.threshold) throw badRequest([{ path: 'couponGrantId', ...msg('mall.couponThreshold', { threshold: (coupon.threshold / 100).toFixed(2) }) }]);
  if (coupon.kind === COUPON_KIND_AMOUNT) return Math.min(coupon.amountOff ?? 0, base);
  return Math.floor((base * (100 - (coupon.discountPercent ?? 100))) / 100);
}

/**
 * The coupon of a parent's unused grant, open today; refuses (field `couponGrantId`) any other. It
 * only reads: placing an order prices it before its transaction, and `useGrant` then claims the grant.
 */
export async function usableCouponOfGrant(db: Executor, parentId: number, grantId: number, now: Date): Promise<CouponRow> {
  const found = (await db.execute(sql`
    select ${COUPON_COLUMNS} from coupons
    where id = (select coupon_id from coupon_grants where id = ${grantId} and parent_id = ${parentId} and state = ${COUPON_GRANT_UNUSED})`)) as unknown as Rows;
  const coupon = found.rows[0] ? toCoupon(found.rows[0]) : undefined;
  if (!coupon || !isOpenOn(coupon, formatBusinessDate(now))) throw badRequest([{ path: 'couponGrantId', ...msg('mall.couponNotUsable') }]);
  return coupon;
}

/**
 * Marks a parent's unused grant used by an order, in the caller's transaction, once: a second order
 * naming it (even at the same moment) is refused.
 */
export async function useGrant(tx: Executor, parentId: number, grantId: number, orderId: number, now: Date): Promise<void> {
  const used = (await tx.execute(sql`
    update coupon_grants set state = ${COUPON_GRANT_USED}, order_id = ${orderId}, used_at = ${now.toISOString()}::timestamptz
    where id = ${grantId} and parent_id = ${parentId} and state = ${COUPON_GRANT_UNUSED}
    returning id`)) as unknown as Rows;
  if (!used.rows[0]) throw badRequest([{ path: 'couponGrantId', ...msg('mall.couponNotUsable') }]);
}

/** Gives back the grant an order used (the order was cancelled or closed unpaid). */
export async function releaseGrantOf(tx: Executor, orderId: number): Promise<void> {
  await tx.execute(sql`update coupon_grants set state = ${COUPON_GRANT_UNUSED}, order_id = null, used_at = null where order_id = ${orderId}`);
}

/** A parent's grants with their coupons, newest first: what the app's "my coupons" shows. */
export async function myCoupons(db: Executor, parentId: number, now: Date) {
  const day = formatBusinessDate(now);
  const found = (await db.execute(sql`
    select g.id, g.state, g.granted_at as "grantedAt", g.order_id as "orderId", c.id as "couponId", c.title, c.kind, c.amount_off as "amountOff",
      c.discount_percent as "discountPercent", coalesce(c.threshold, 0) as threshold, c.start_date::text as "startDate", c.end_date::text as "endDate",
      (c.state = ${COUPON_ACTIVE} and c.start_date <= ${day}::date and ${day}::date <= c.end_date and g.state = ${COUPON_GRANT_UNUSED}) as usable
    from coupon_grants g join coupons c on c.id = g.coupon_id where g.parent_id = ${parentId} order by g.id desc limit 200`)) as unknown as Rows;
  return found.rows.map((row) => ({
    grantId: Number(row.id),
    couponId: Number(row.couponId),
    title: String(row.title),
    kind: Number(row.kind),
    amountOff: row.amountOff === null ? null : Number(row.amountOff),
    discountPercent: row.discountPercent === null ? null : Number(row.discountPercent),
    threshold: Number(row.threshold),
    startDate: String(row.startDate),
    endDate: String(row.endDate),
    state: Number(row.state),
    orderId: row.orderId === null ? null : Number(row.orderId),
    isUsable: row.usable === true,
  }));
}

/**
 * The coupons a parent may claim today: open, targeting the parent, some left and fewer held than
 * the limit. Read per coupon with the same conditions claimCoupon checks under the coupon's lock.
 */
export async function claimableCoupons(db: Executor, parentId: number, now: Date) {
  const day = formatBusinessDate(now);
  const open = (await db.execute(sql`select ${COUPON_COLUMNS}, title from coupons where state = ${COUPON_ACTIVE} and start_date <= ${day}::date and ${day}::date <= end_date and issued < total
    order by end_date, id limit 50`)) as unknown as Rows;
  const found = [];
  for (const row of open.rows) {
    const coupon = toCoupon(row);
    const parent = (await db.execute(sql`select ${heldOf(coupon.id)}::int as held from parents p where p.id = ${parentId} and p.enabled and ${targetedParents(coupon)}`)) as unknown as Rows;
    const held = parent.rows[0] ? Number(parent.rows[0].held) : null;
    if (held === null || held >= coupon.perParentLimit) continue;
    found.push({
      couponId: coupon.id,
      title: String(row.title),
      kind: coupon.kind,
      amountOff: coupon.amountOff,
      discountPercent: coupon.discountPercent,
      threshold: coupon.threshold,
      startDate: coupon.startDate,
      endDate: coupon.endDate,
      left: coupon.total - coupon.issued,
      held,
      perParentLimit: coupon.perParentLimit,
    });
  }
  return found;
}
