/**
 * Mall orders as parents place, pay, receive and cancel them (the app channel's calls are thin routes
 * over these), and the jobs that close unpaid orders and complete received ones. Every function takes
 * the parent's id first after the executor and reaches only that parent's rows (another parent's
 * order is 404). Stock is taken per line by one conditional update (`stock_count >= n`), in commodity
 * order so concurrent orders lock rows in one order: stock never goes below zero and an order is
 * placed whole or not at all (one transaction with its coupon and points).
 *
 * A flash sale queues every buyer of one commodity on its row's lock, so placing holds that lock as
 * briefly as it can: everything is read and priced before the transaction, the order and its lines
 * are one insert, the coupon and points are claimed next, and the stock is the transaction's last
 * statement before the commit. With the sold-out refused before any write (app-channel), that took
 * bench:orders' CPU per attempt from 10.2–11.3 to 6.2–6.8 ms, server and database together
 * (docs/performance.md, "the stock's lock held for one statement"). The channel's order of one
 * commodity goes further (placeOrderOnce): one read, then one statement with its idempotency key and
 * no transaction block, so the row is locked for that statement alone.
 */
import {
  MALL_ORDER_PAID,
  MALL_ORDER_RECEIVED,
  MALL_ORDER_UNPAID,
  MALL_RECEIVED_COMPLETE_DAYS,
  MALL_UNPAID_MINUTES,
  MarketOrder,
  POINTS_EARN_ORDER,
  POINTS_PER_FEN,
  POINTS_RETURN,
  POINTS_SPEND_ORDER,
  formatBusinessDate,
  ErrorCode,
  builtOnce,
  type PaymentChannel,
  type StoredRowOf,
  type WechatAppPayParams,
} from '@campus/contract';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { intArrayText } from '../platform/sql-terms.js';
import { namedStatement, type Database, type Executor } from '../db/client.js';
import { marketOrders } from '../db/schema/mall.js';
import { CHANNEL_OF_PROVIDER } from '../finance/payment-notifications.js';
import { recordPayment } from '../finance/payments.js';
import type { PaymentProviders } from '../finance/providers/index.js';
import { AppError, badRequest, conflict, msg, notFound } from '../platform/errors.js';
import { coalescing } from '../platform/coalesce.js';
import { applySystemTransition } from '../resources/engine/workflow.js';
import { couponDiscount, releaseGrantOf, usableCouponOfGrant, useGrant } from './coupons.js';
import { postPoints } from './points.js';
import { pointsEarningOf } from './points-earning.js';
import { releasedToSchool } from './catalog.js';

type Rows = { rows: Record<string, unknown>[] };
/** An order row as its table stores it. */
type OrderRow = StoredRowOf<typeof MarketOrder>;

/** What a parent orders: lines, an address of its own, optionally a coupon it holds and points to spend. */
export interface PlaceOrderInput {
  lines: readonly { commodityId: number; quantity: number }[];
  addressId: number;
  couponGrantId?: number | null;
  points?: number;
  remark?: string | null;
}

/** `SC` + the day (China time) + the id: unique without a counter. */
export function mallOrderNumber(id: number, at: Date): string {
  return `SC${formatBusinessDate(at).replaceAll('-', '')}${String(id).padStart(8, '0')}`;
}

/** mallOrderNumber written in SQL, for the statements that number the id they draw: `day` is YYYYMMDD. */
function orderNumberSql(day: unknown, id: SQL): SQL {
  return sql`'SC' || ${day}::text || lpad(${id}::text, greatest(8, length(${id}::text)), '0')`;
}

/** Where an order goes: the parent's school and the address it chose. */
interface Destination {
  schoolId: number;
  consigneeName: string;
  consigneePhone: string;
  deliveryAddress: string;
}

/** A taken line: the commodity's price, category and merchant at the moment of ordering. */
interface TakenLine {
  commodityId: number;
  quantity: number;
  unitPrice: number;
  categoryId: number;
  merchantId: number;
  amount: number;
}

/** Lines merged by commodity (one line per commodity), in commodity order: the order rows are locked in. */
function mergedLines(lines: readonly { commodityId: number; quantity: number }[]): [commodityId: number, quantity: number][] {
  const merged = new Map<number, number>();
  for (const line of lines) merged.set(line.commodityId, (merged.get(line.commodityId) ?? 0) + line.quantity);
  return [...merged].sort(([a], [b]) => a - b);
}

/** A parent sees only what its school is offered today; staff (no school) may sell whatever is on sale. */
const offeredSql = (schoolId: number | null, now: Date) => (schoolId === null ? sql`true` : releasedToSchool(sql`c.id`, schoolId, formatBusinessDate(now)));

/**
 * An idempotency key that a write claims inside its own statement (the app channel's,
 * app-channel/idempotency.ts). `key` is looked up by the order's read: the parent may hold it
 * already (answered, running or expired). The statement that places the order stores the key with
 * its answer; a plain insert, so a key claimed meanwhile fails it, which `isHeld` tells from any other failure.
 */
export interface KeyInStatement {
  /** The key itself, which the order's read looks up among the parent's keys. */
  key: string;
  /** The call's hash, stored with the claim (worked out only when the key is claimed). */
  hash(): string;
  /** Whether a failed statement failed on a claim of a key already held. */
  isHeld(error: unknown): boolean;
}

/** What the one read of an order finds: whether its key is known, the parent's school and address, its lines' commodities. */
interface OrderRead {
  keyKnown: boolean;
  row: Record<string, unknown>;
  /** The order's lines merged by commodity, as they were read. */
  merged: [commodityId: number, quantity: number][];
}

/**
 * The one read of an order (readOrder), prepared once per database and named: every attempt of a flash
 * sale sends it, and parsing and planning it again each time was most of the database's CPU per
 * attempt (docs/performance.md, "29 Nov, i29-cpu"). Every lookup in it is by a key, so the generic
 * plan PostgreSQL settles on after five runs is the plan each run would get.
 */
const orderReadOf = namedStatement('campus_mall_order_read', () => {
  const p = sql.placeholder;
  return sql`
    select exists (select 1 from app_idempotency_keys where parent_id = ${p('parentId')}::int and key = ${p('key')}::text) as "keyKnown",
      p.school_id as "schoolId", a.id as "addressId", a.consignee_name as name, a.consignee_phone as phone, a.province, a.city, a.area, a.detail,
      (select json_agg(json_build_array(c.id, c.title, c.unit_price, c.category_id, c.merchant_id, c.stock_count,
          c.is_enabled and ${releasedToSchool(sql`c.id`, sql`p.school_id`, p('day'))}))
        from market_commodities c where p.id is not null and c.id = any(${p('ids')}::int[])) as commodities
    from (select 1) as one
      left join parents p on p.id = ${p('parentId')}::int and p.enabled
      left join market_addresses a on a.id = ${p('addressId')}::int and a.parent_id = p.id`;
});

/**
 * Reads everything an order is priced from in one statement, without a lock: the parent (enabled)
 * and its school, the chosen address if it is the parent's, each line's commodity as offered to that
 * school today, and — for the channel — whether the call's idempotency key (`key`) is known. One row always.
 */
async function readOrder(db: Database, parentId: number, input: PlaceOrderInput, now: Date, key: string | null = null): Promise<OrderRead> {
  const merged = mergedLines(input.lines);
  const ids = intArrayText(merged.map(([id]) => id));
  const found = (await orderReadOf(db).execute({ parentId, key, day: formatBusinessDate(now), ids, addressId: input.addressId })) as unknown as Rows;
  const row = found.rows[0]!;
  return { keyKnown: row.keyKnown === true, row, merged };
}

/** The row of a commodity as readOrder reads it: id, title, unit price, category, merchant, stock, offered. */
type CommodityTuple = [number, string, number, number, number, number, boolean];

/**
 * Where the order goes and what its lines cost, from the read: 404 for an unknown or disabled parent
 * or another parent's address; refuses the first line not on sale to the school or short of stock,
 * naming its commodity (a flash sale's sold-out attempts end here, before any write).
 */
function destinationAndLines(read: OrderRead): { destination: Destination; lines: TakenLine[] } {
  const { row } = read;
  if (row.schoolId === null || row.schoolId === undefined) throw notFound();
  if (row.addressId === null) throw notFound(msg('error.addressNotFound'));
  const destination = {
    schoolId: Number(row.schoolId),
    consigneeName: String(row.name),
    consigneePhone: String(row.phone),
    deliveryAddress: [row.province, row.city, row.area, row.detail].filter(Boolean).join(' '),
  };
  const tuples = ((typeof row.commodities === 'string' ? JSON.parse(row.commodities) : row.commodities) ?? []) as CommodityTuple[];
  const byId = new Map(tuples.map((tuple) => [Number(tuple[0]), tuple]));
  const lines = read.merged.map(([commodityId, quantity]) => {
    const found = byId.get(commodityId);
    if (!found || found[6] !== true) throw badRequest([{ path: 'lines', ...msg('mall.notOnSale', { title: found ? String(found[1]) : `#${commodityId}` }) }]);
    const [, title, unitPrice, categoryId, merchantId, stock] = found;
    if (Number(stock) < quantity) throw badRequest([{ path: 'lines', ...msg('mall.outOfStock', { title: String(title) }) }]);
    return { commodityId, quantity, unitPrice: Number(unitPrice), categoryId: Number(categoryId), merchantId: Number(merchantId), amount: Number(unitPrice) * quantity };
  });
  return { destination, lines };
}

/**
 * Why a line could not be had, read after its stock update found nothing or failed: 409 when only
 * its price changed, else 400 on `lines` (out of stock, or not on sale to the school any more).
 */
async function refuseLine(db: Executor, schoolId: number | null, commodityId: number, quantity: number, now: Date): Promise<never> {
  const found = (await db.execute(
    sql`select title, stock_count as stock from market_commodities c where c.id = ${commodityId} and c.is_enabled and ${offeredSql(schoolId, now)}`,
  )) as unknown as Rows;
  const current = found.rows[0];
  const title = current ? String(current.title) : `#${commodityId}`;
  if (current && Number(current.stock) >= quantity) throw conflict(msg('mall.priceChanged', { title }));
  throw badRequest([{ path: 'lines', ...msg(current ? 'mall.outOfStock' : 'mall.notOnSale', { title }) }]);
}

/**
 * Takes the stock of each line, or refuses the first line that cannot be had (not on sale to the
 * school, too few left, or — when `priced` says what the order was priced at — a price changed
 * since), naming its commodity; the caller's transaction then rolls back all.
 */
export async function takeStock(
  tx: Executor,
  schoolId: number | null,
  lines: readonly { commodityId: number; quantity: number }[],
  now: Date,
  priced?: ReadonlyMap<number, number>,
): Promise<TakenLine[]> {
  const taken: TakenLine[] = [];
  for (const [commodityId, quantity] of mergedLines(lines)) {
    const offered = offeredSql(schoolId, now);
    const price = priced?.get(commodityId);
    const samePrice = price === undefined ? sql`true` : sql`c.unit_price = ${price}`;
    const updated = (await tx.execute(sql`
      update market_commodities c set stock_count = c.stock_count - ${quantity}, sold_count = coalesce(c.sold_count, 0) + ${quantity}
      where c.id = ${commodityId} and c.is_enabled and c.stock_count >= ${quantity} and ${offered} and ${samePrice}
      returning c.unit_price as "unitPrice", c.category_id as "categoryId", c.merchant_id as "merchantId"`)) as unknown as Rows;
    const row = updated.rows[0];
    if (!row) return refuseLine(tx, schoolId, commodityId, quantity, now);
    const unitPrice = Number(row.unitPrice);
    taken.push({ commodityId, quantity, unitPrice, categoryId: Number(row.categoryId), merchantId: Number(row.merchantId), amount: unitPrice * quantity });
  }
  return taken;
}

/** Puts an order's stock back (it was cancelled, closed unpaid or deleted unpaid). */
async function giveBackStock(tx: Executor, orderId: number): Promise<void> {
  await tx.execute(sql`
    update market_commodities c set stock_count = c.stock_count + l.quantity, sold_count = greatest(coalesce(c.sold_count, 0) - l.quantity, 0)
    from (select commodity_id, sum(quantity)::int as quantity from market_order_lines where market_order_id = ${orderId} group by commodity_id) l
    where c.id = l.commodity_id`);
}

/**
 * What each line paid: its amount less its share of the reductions (coupon and points), floored; the
 * last line takes the remainder so the lines sum to what the order pays.
 */
export function paidAmounts(amounts: readonly number[], reduction: number): number[] {
  const total = amounts.reduce((sum, amount) => sum + amount, 0);
  if (total === 0) return amounts.map(() => 0);
  let given = 0;
  return amounts.map((amount, index) => {
    if (index === amounts.length - 1) return amount - (reduction - given);
    const share = Math.floor((amount * reduction) / total);
    given += share;
    return amount - share;
  });
}

/** An order priced and ready to place: where it goes, its lines, and what the coupon and points take off. */
export interface PricedOrder {
  destination: Destination;
  lines: TakenLine[];
  total: number;
  discount: number;
  points: number;
  payAmount: number;
  paid: number[];
}

/** What the coupon and points take off lines priced from the read (they may read the coupon), and what is left to pay. */
async function priceFromRead(db: Executor, parentId: number, input: PlaceOrderInput, read: OrderRead, now: Date): Promise<PricedOrder> {
  const { destination, lines } = destinationAndLines(read);
  const total = lines.reduce((sum, line) => sum + line.amount, 0);
  const coupon = input.couponGrantId ? await usableCouponOfGrant(db, parentId, input.couponGrantId, now) : undefined;
  const discount = coupon ? await couponDiscount(db, coupon, lines) : 0;
  const points = input.points ?? 0;
  const pointsValue = Math.floor(points / POINTS_PER_FEN);
  if (pointsValue > total - discount) throw badRequest([{ path: 'points', ...msg('mall.pointsBeyondOrder') }]);
  const paid = paidAmounts(lines.map((line) => line.amount), discount + pointsValue);
  return { destination, lines, total, discount, points, payAmount: total - discount - pointsValue, paid };
}

/** An order without lines is refused before anything is read. */
function refuseNoLines(input: PlaceOrderInput): void {
  if (input.lines.length === 0) throw badRequest([{ path: 'lines', ...msg('validation.required') }]);
}

/**
 * Reads and prices an order without writing or locking anything: refuses what placing it would
 * refuse for the parent, address, lines (not on sale, too few left), coupon or points value.
 */
export async function priceOrder(db: Database, parentId: number, input: PlaceOrderInput, now: Date): Promise<PricedOrder> {
  refuseNoLines(input);
  return priceFromRead(db, parentId, input, await readOrder(db, parentId, input, now), now);
}

/** A placed order: its id, its number and what is left to pay. */
export interface PlacedOrder {
  orderId: number;
  orderNo: string;
  payAmount: number;
}

/**
 * The CTEs that draw the order's id and number (`n`: id, order_no; the number as mallOrderNumber
 * makes it), insert the order (`o`) and its lines (`l`), for a WITH of the caller's statement.
 */
function orderInsertCtes(parentId: number, input: PlaceOrderInput, priced: PricedOrder, now: Date): SQL {
  const { destination, lines, total, discount, points, payAmount, paid } = priced;
  const day = formatBusinessDate(now).replaceAll('-', '');
  const lineValues = sql.join(
    lines.map((line, index) => sql`(${index + 1}::int, ${line.commodityId}::int, ${line.merchantId}::int, ${line.quantity}::int, ${line.unitPrice}::bigint, ${line.amount}::bigint, ${paid[index]!}::bigint)`),
    sql`, `,
  );
  return sql`n as (
      select id, ${orderNumberSql(day, sql`id`)} as order_no
      from (select nextval(pg_get_serial_sequence('market_orders', 'id'))::int as id) drawn
    ), o as (
      insert into market_orders (id, order_no, state, parent_id, school_id, total_amount, coupon_discount, coupon_grant_id, points_used, pay_amount,
        consignee_name, consignee_phone, delivery_address, remark, created_at, updated_at)
      select n.id, n.order_no, ${MALL_ORDER_UNPAID}::smallint, ${parentId}::int, ${destination.schoolId}::int,
        ${total}::bigint, ${discount}::bigint, ${input.couponGrantId ?? null}::int, ${points}::int, ${payAmount}::bigint,
        ${destination.consigneeName}::text, ${destination.consigneePhone}::text, ${destination.deliveryAddress}::text, ${input.remark ?? null}::text,
        ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
      from n
      returning id
    ), l as (
      insert into market_order_lines (market_order_id, line_no, commodity_id, merchant_id, quantity, unit_price, amount, paid_amount, refunded_amount)
      select o.id, v.line_no, v.commodity_id, v.merchant_id, v.quantity, v.unit_price, v.amount, v.paid_amount, 0
      from o, (values ${lineValues}) as v(line_no, commodity_id, merchant_id, quantity, unit_price, amount, paid_amount)
    )`;
}

/**
 * A parent places an order: stock, coupon and points are taken in one transaction with the order and
 * its lines, or nothing is. Answers the order's id, number and what is left to pay. `priced`: the
 * order as the caller priced it a moment ago (placeOrderOnce), not read again; the stock's update
 * still checks its price.
 */
export async function placeOrder(db: Database, parentId: number, input: PlaceOrderInput, now: Date, priced?: PricedOrder): Promise<PlacedOrder> {
  // Read and priced before the transaction (module doc): none of this holds a lock.
  const order = priced ?? (await priceOrder(db, parentId, input, now));
  const { destination, lines, points, payAmount } = order;
  return db.transaction(async (tx) => {
    // The order and its lines in one statement; its number is made from the id it draws (mallOrderNumber).
    const inserted = (await tx.execute(sql`with ${orderInsertCtes(parentId, input, order, now)} select id, order_no as "orderNo" from n`)) as unknown as Rows;
    const orderId = Number(inserted.rows[0]!.id);
    const orderNo = String(inserted.rows[0]!.orderNo);
    if (input.couponGrantId) await useGrant(tx, parentId, input.couponGrantId, orderId, now);
    if (points > 0) await postPoints(tx, parentId, { kind: POINTS_SPEND_ORDER, amount: -points, source: `MarketOrder:${orderId}`, reason: orderNo, now });
    // Last, so the commodity's row stays locked only for this statement and the commit.
    await takeStock(tx, destination.schoolId, input.lines, now, new Map(lines.map((line) => [line.commodityId, line.unitPrice])));
    return { orderId, orderNo, payAmount };
  });
}

/** One parent's order of one commodity, read and priced, waiting to be placed with others of that commodity. */
interface Placement {
  parentId: number;
  input: PlaceOrderInput;
  priced: PricedOrder;
  key: KeyInStatement;
  now: Date;
}

/**
 * What a batch did with one placement: placed it; found its key known (claimed meanwhile: the usual
 * way answers it); or left it, either because the stock left after the ones before it would still
 * cover it (`couldFit`: try again) or because it cannot be had (refuseLine says why).
 */
type PlacementOutcome = { placed: PlacedOrder } | { keyKnown: true } | { left: true; couldFit: boolean };

/**
 * The batch's statement, prepared once per database and named: its text never changes, the batch
 * travels as one JSON parameter (json_to_recordset). It locks the commodity's row first, at its
 * price and enabled, then places, in arrival order, each order whose key is unknown, whose school is
 * offered the commodity today and whose quantity the stock still covers after the ones before it:
 * draws each one's id and number (mallOrderNumber), inserts the orders, their lines and their keys
 * with their answers, and takes their stock in one update. One row per placement, in order.
 */
const placeBatchOf = namedStatement('campus_mall_place_batch', () => {
  const p = sql.placeholder;
  return sql`
    with req as (
      select * from json_to_recordset(${p('batch')}::json) as r(ord int, parent_id int, school_id int, quantity int, consignee_name text,
        consignee_phone text, delivery_address text, remark text, key text, request_hash text, at timestamptz)
    ), c as (
      select id, stock_count, merchant_id from market_commodities
      where id = ${p('commodityId')}::int and is_enabled and unit_price = ${p('unitPrice')}::bigint
      for no key update
    ), chk as (
      select r.*, ${p('unitPrice')}::bigint * r.quantity as amount,
        exists (select 1 from app_idempotency_keys k where k.parent_id = r.parent_id and k.key = r.key) as key_known,
        ${releasedToSchool(sql`${p('commodityId')}::int`, sql`r.school_id`, p('day'))} as offered
      from req r
    ), fit as (
      select chk.*, sum(chk.quantity) over (order by chk.ord) as running from chk where not chk.key_known and chk.offered and exists (select 1 from c)
    ), drawn as (
      select fit.*, nextval(pg_get_serial_sequence('market_orders', 'id'))::int as id from fit, c where fit.running <= c.stock_count
    ), n as (
      select drawn.*, ${orderNumberSql(p('dayNo'), sql`drawn.id`)} as order_no from drawn
    ), o as (
      insert into market_orders (id, order_no, state, parent_id, school_id, total_amount, coupon_discount, coupon_grant_id, points_used, pay_amount,
        consignee_name, consignee_phone, delivery_address, remark, created_at, updated_at)
      select n.id, n.order_no, ${MALL_ORDER_UNPAID}::smallint, n.parent_id, n.school_id, n.amount, 0, null, 0, n.amount,
        n.consignee_name, n.consignee_phone, n.delivery_address, n.remark, n.at, n.at
      from n
    ), l as (
      insert into market_order_lines (market_order_id, line_no, commodity_id, merchant_id, quantity, unit_price, amount, paid_amount, refunded_amount)
      select n.id, 1, c.id, c.merchant_id, n.quantity, ${p('unitPrice')}::bigint, n.amount, n.amount, 0 from n, c
    ), k as (
      insert into app_idempotency_keys (parent_id, key, request_hash, created_at, answer)
      select n.parent_id, n.key, n.request_hash, n.at, jsonb_build_object('data', jsonb_build_object('orderId', n.id, 'orderNo', n.order_no, 'payAmount', n.amount)) from n
    ), s as (
      update market_commodities m set stock_count = m.stock_count - t.quantity, sold_count = coalesce(m.sold_count, 0) + t.quantity
      from (select sum(n.quantity)::int as quantity from n) t
      where m.id = ${p('commodityId')}::int and t.quantity > 0
    )
    select chk.ord, n.id, n.order_no as "orderNo", n.amount as "payAmount", chk.key_known as "keyKnown",
      chk.offered and coalesce((select stock_count from c), -1) - coalesce((select sum(quantity) from n), 0) >= chk.quantity as "couldFit"
    from chk left join n on n.ord = chk.ord
    order by chk.ord`;
});

/** Places a batch of one commodity's orders at one price on one day (placeBatchOf); a key claimed meanwhile fails it whole, and then each goes alone. */
async function placeBatch(db: Database, batch: Placement[]): Promise<PlacementOutcome[]> {
  const [first] = batch;
  const line = first!.priced.lines[0]!;
  const rows = batch.map(({ parentId, input, priced: { destination, lines }, key, now }, ord) => ({
    ord,
    parent_id: parentId,
    school_id: destination.schoolId,
    quantity: lines[0]!.quantity,
    consignee_name: destination.consigneeName,
    consignee_phone: destination.consigneePhone,
    delivery_address: destination.deliveryAddress,
    remark: input.remark ?? null,
    key: key.key,
    request_hash: key.hash(),
    at: now.toISOString(),
  }));
  const day = formatBusinessDate(first!.now);
  let found: Rows;
  try {
    found = (await placeBatchOf(db).execute({ batch: JSON.stringify(rows), commodityId: line.commodityId, unitPrice: line.unitPrice, day, dayNo: day.replaceAll('-', '') })) as unknown as Rows;
  } catch (error) {
    if (!first!.key.isHeld(error)) throw error;
    if (batch.length === 1) return [{ keyKnown: true }];
    const alone: PlacementOutcome[] = [];
    for (const placement of batch) alone.push(...(await placeBatch(db, [placement])));
    return alone;
  }
  return found.rows.map((row) => {
    if (row.id !== null) return { placed: { orderId: Number(row.id), orderNo: String(row.orderNo), payAmount: Number(row.payAmount) } };
    if (row.keyKnown === true) return { keyKnown: true };
    return { left: true, couldFit: row.couldFit === true };
  });
}

/** How many orders of one commodity a batch carries at most: a flash sale's crowd at one instance is far fewer. */
const MAX_BATCH = 100;

/** The batches of each database: one at a time per commodity, price and day; who arrives meanwhile goes in the next. */
const placementsOf = builtOnce((db: Database) =>
  coalescing<string, Placement, PlacementOutcome>((_batchKey, batch) => placeBatch(db, batch), MAX_BATCH),
);

/** Tries a left placement again this many times while the stock would still cover it, before refusing it. */
const PLACEMENT_TRIES = 3;

/**
 * Places a parent's order under an idempotency key in as few round trips as it can (docs/decisions.md,
 * "An order of one commodity is one statement", and "A flash sale's orders placed in batches"). One
 * read prices it and tells whether the key is known; an order of one commodity with no coupon and no
 * points then goes in a batch with the other orders of that commodity arriving meanwhile: one statement
 * that claims each key with its answer, inserts the orders and their lines and takes the stock — each
 * order whole or not at all. Alone, an order is a batch of one and waits for nothing; in a crowd, the
 * commodity's row is locked once per batch, not once per order.
 *
 * Refuses what priceOrder refuses, for a key never seen only (a known key may be the replay of an
 * order placed already: it is never answered "sold out"). Answers `usual` for what goes the usual
 * way (onceByKey, then placeOrder with the order as priced here, if it was): a known key, an order
 * with a coupon, points or several commodities, or a key claimed by another call in between.
 */
export async function placeOrderOnce(db: Database, parentId: number, input: PlaceOrderInput, now: Date, key: KeyInStatement): Promise<{ placed: PlacedOrder } | { usual: PricedOrder | undefined }> {
  refuseNoLines(input);
  const read = await readOrder(db, parentId, input, now, key.key);
  if (read.keyKnown) return { usual: undefined };
  const priced = await priceFromRead(db, parentId, input, read, now);
  const [line, ...more] = priced.lines;
  if (!line || more.length > 0 || input.couponGrantId || priced.points > 0) return { usual: priced };
  const batchKey = `${line.commodityId}:${line.unitPrice}:${formatBusinessDate(now)}`;
  for (let tries = 1; ; tries += 1) {
    const outcome = await placementsOf(db)(batchKey, { parentId, input, priced, key, now });
    if ('placed' in outcome) return outcome;
    if ('keyKnown' in outcome) return { usual: priced };
    if (!outcome.couldFit || tries === PLACEMENT_TRIES) return refuseLine(db, priced.destination.schoolId, line.commodityId, line.quantity, now);
  }
}

/** One order of the parent, locked; 404 when it is not the parent's. */
async function lockOrderOf(tx: Executor, parentId: number | null, orderId: number): Promise<OrderRow> {
  const owner = parentId === null ? undefined : eq(marketOrders.parentId, parentId);
  const [order] = await tx.select().from(marketOrders).where(and(eq(marketOrders.id, orderId), owner)).for('update');
  if (!order) throw notFound();
  return order as OrderRow;
}

/**
 * Gives back what an unpaid order took — its stock, its coupon and its points — in the caller's
 * transaction. Called by every way an unpaid order ends (the parent's cancel, staff's cancel or
 * delete, the 30-minute close).
 */
export async function releaseUnpaidOrder(tx: Executor, order: { id: number; parentId: number; pointsUsed: number | null; orderNo: string | null }, now: Date): Promise<void> {
  await giveBackStock(tx, order.id);
  await releaseGrantOf(tx, order.id);
  const points = Number(order.pointsUsed ?? 0);
  if (points > 0) await postPoints(tx, order.parentId, { kind: POINTS_RETURN, amount: points, source: `MarketOrder:${order.id}`, reason: order.orderNo ?? '', now });
}

/** A parent cancels its unpaid order: stock, coupon and points go back. */
export async function cancelOrder(db: Database, parentId: number, orderId: number, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const order = await lockOrderOf(tx, parentId, orderId);
    await applySystemTransition(tx, MarketOrder, order, 'ParentCancel', { now });
    await releaseUnpaidOrder(tx, order, now);
  });
}

/** Merchants' shares of a payment: each line's paid amount less the merchant's commission, floored to the fen. */
async function merchantSharesOf(tx: Executor, orderId: number): Promise<{ merchantId: number; amount: number }[]> {
  const found = (await tx.execute(sql`
    select l.merchant_id as "merchantId", sum(floor(l.paid_amount * (100 - m.commission_percent) / 100.0))::bigint as amount
    from market_order_lines l join market_merchants m on m.id = l.merchant_id
    where l.market_order_id = ${orderId} group by l.merchant_id order by l.merchant_id`)) as unknown as Rows;
  return found.rows.map((row) => ({ merchantId: Number(row.merchantId), amount: Number(row.amount) }));
}

/**
 * Marks an unpaid order paid by a payment the provider settled, in the caller's transaction: records
 * the payment (its merchants' shares posted as their legs) and moves the order to paid. A payment
 * already recorded (a retried notification) changes nothing.
 */
export async function settleOrderPayment(tx: Executor, orderId: number, payment: { channel: PaymentChannel; tradeNo: string; paidAt: Date }): Promise<OrderRow> {
  const order = await lockOrderOf(tx, null, orderId);
  if (order.state !== MALL_ORDER_UNPAID) {
    if (order.paymentId !== null) return order;
    throw conflict(msg('mall.notPayable', { state: stateLabel(order.state) }));
  }
  const amount = Number(order.payAmount ?? 0);
  let paymentId: number | null = null;
  if (amount > 0) {
    const recorded = await recordPayment(tx, {
      schoolId: Number(order.schoolId),
      amount,
      channel: payment.channel,
      tradeNo: payment.tradeNo,
      paidAt: payment.paidAt,
      outTradeNo: order.orderNo ?? undefined,
      parentId: order.parentId,
      merchantShares: await merchantSharesOf(tx, order.id),
    });
    paymentId = recorded.payment.id;
  }
  await applySystemTransition(tx, MarketOrder, order, 'Pay', { values: { paymentId, paidAt: payment.paidAt }, now: payment.paidAt });
  return order;
}

const stateLabel = (state: number | null) => ({ zh: '', en: '', ...MarketOrder.fields.state.options.find((option) => option.value === state) });

/** The `attach` of a mall order's payment: its id, which the provider's notification answers back (mall's seam in resources/mall.ts). */
export function marketOrderAttachOf(orderId: number): string {
  return JSON.stringify({ marketOrderId: orderId });
}

/** The mall order an `attach` names, or undefined for any other order's attach. */
export function marketOrderOfAttach(text: unknown): number | undefined {
  if (typeof text !== 'string' || !text.includes('marketOrderId')) return undefined;
  try {
    const parsed = JSON.parse(text) as { marketOrderId?: unknown };
    return typeof parsed.marketOrderId === 'number' && Number.isSafeInteger(parsed.marketOrderId) ? parsed.marketOrderId : undefined;
  } catch {
    return undefined;
  }
}

/** What paying answers: paid at once, or pending with what the app opens (WeChat's SDK parameters or a code to scan). */
export interface OrderPayment {
  state: number;
  outcome: 'paid' | 'pending';
  payParams: WechatAppPayParams | null;
  payUrl: string | null;
}

/**
 * A parent pays its unpaid order through the active provider. The demo provider settles at once: the
 * payment is recorded and the order paid before this answers. WeChat Pay answers `pending` with what
 * the app opens; its notification records the payment (the mall's payment seam, resources/mall.ts).
 */
export async function payOrder(db: Database, payments: PaymentProviders, parentId: number, orderId: number, now: () => Date, scene: 'app' | 'native' = 'app'): Promise<OrderPayment> {
  const [order] = await db.select().from(marketOrders).where(and(eq(marketOrders.id, orderId), eq(marketOrders.parentId, parentId)));
  if (!order) throw notFound();
  if (order.state !== MALL_ORDER_UNPAID) throw conflict(msg('mall.notPayable', { state: stateLabel(order.state) }));
  const amount = Number(order.payAmount ?? 0);
  const paid: OrderPayment = { state: MALL_ORDER_PAID, outcome: 'paid', payParams: null, payUrl: null };
  if (amount === 0) {
    // Coupon and points paid it all: no payment to record.
    await db.transaction((tx) => settleOrderPayment(tx, orderId, { channel: 'wechat', tradeNo: '', paidAt: now() }));
    return paid;
  }
  const provider = payments.active;
  const answer = await provider.pay({ outTradeNo: order.orderNo!, amount, description: `商城订单 ${order.orderNo}`, attach: marketOrderAttachOf(orderId), scene });
  if (answer.outcome === 'paid') {
    await db.transaction((tx) => settleOrderPayment(tx, orderId, { channel: CHANNEL_OF_PROVIDER[provider.name], tradeNo: answer.providerTradeNo ?? order.orderNo!, paidAt: now() }));
    return paid;
  }
  if (answer.outcome === 'pending') return { state: MALL_ORDER_UNPAID, outcome: 'pending', payParams: answer.appPayParams ?? null, payUrl: answer.payUrl ?? null };
  if (answer.outcome === 'unknown') throw new AppError(503, ErrorCode.ServiceUnavailable, msg('app.paymentUnknown'));
  throw conflict(msg('mall.paymentFailed', { message: answer.message ?? answer.outcome }));
}

/** A parent confirms it received its shipped order. */
export async function confirmReceipt(db: Database, parentId: number, orderId: number, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const order = await lockOrderOf(tx, parentId, orderId);
    await applySystemTransition(tx, MarketOrder, order, 'Receive', { values: { receivedAt: now }, now });
  });
}

/** Orders of the job's batch: each is its own transaction, so one failure leaves the others done. */
const JOB_BATCH = 200;

/**
 * Runs `step` on each order still in `state` whose `since` time lies before `before`, each in its
 * own transaction with the order locked; rows are claimed with SKIP LOCKED, so an order a parent is
 * acting on right now is left for the next run. Answers how many it moved.
 */
async function forEachDueOrder(db: Database, state: number, since: 'createdAt' | 'receivedAt', before: Date, step: (tx: Executor, order: OrderRow) => Promise<void>): Promise<number> {
  const due = await db
    .select({ id: marketOrders.id })
    .from(marketOrders)
    .where(and(eq(marketOrders.state, state), sql`${marketOrders[since]} <= ${before.toISOString()}::timestamptz`))
    .limit(JOB_BATCH);
  let moved = 0;
  for (const { id } of due) {
    moved += await db.transaction(async (tx) => {
      const [order] = await tx.select().from(marketOrders).where(and(eq(marketOrders.id, id), eq(marketOrders.state, state))).for('update', { skipLocked: true });
      if (!order) return 0;
      await step(tx, order as OrderRow);
      return 1;
    });
  }
  return moved;
}

/** Closes orders left unpaid for 30 minutes, giving back their stock, coupon and points. */
export async function closeUnpaidOrders(db: Database, now: Date): Promise<number> {
  return forEachDueOrder(db, MALL_ORDER_UNPAID, 'createdAt', new Date(now.getTime() - MALL_UNPAID_MINUTES * 60_000), async (tx, order) => {
    await applySystemTransition(tx, MarketOrder, order, 'Expire', { now });
    await releaseUnpaidOrder(tx, order, now);
  });
}

/** Completes orders received 7 days ago and gives their parents the points an order completed earns. */
export async function completeReceivedOrders(db: Database, now: Date): Promise<number> {
  const earning = await pointsEarningOf(db);
  return forEachDueOrder(db, MALL_ORDER_RECEIVED, 'receivedAt', new Date(now.getTime() - MALL_RECEIVED_COMPLETE_DAYS * 86_400_000), async (tx, order) => {
    await applySystemTransition(tx, MarketOrder, order, 'Complete', { now });
    await postPoints(tx, order.parentId, { kind: POINTS_EARN_ORDER, amount: earning.orderCompleted, source: `MarketOrder:${order.id}`, reason: order.orderNo ?? '', now });
  });
}

/** A parent's orders, newest first, with their lines: what the app's "my orders" shows. */
export async function myOrders(db: Executor, parentId: number, page: { pageIndex: number; pageSize: number; state?: number; orderId?: number }) {
  const stateFilter = sql`${page.state === undefined ? sql`true` : sql`o.state = ${page.state}`} and ${page.orderId === undefined ? sql`true` : sql`o.id = ${page.orderId}`}`;
  const found = (await db.execute(sql`
    select o.id, o.order_no as "orderNo", o.state, o.total_amount as "totalAmount", o.coupon_discount as "couponDiscount", o.points_used as "pointsUsed",
      o.pay_amount as "payAmount", o.carrier, o.tracking_no as "trackingNo", o.created_at as "createdAt",
      coalesce((select json_agg(json_build_object('lineNo', l.line_no, 'commodityId', l.commodity_id, 'title', c.title, 'image', c.image, 'quantity', l.quantity,
        'unitPrice', l.unit_price, 'amount', l.amount, 'paidAmount', l.paid_amount, 'refundedAmount', l.refunded_amount) order by l.line_no)
        from market_order_lines l join market_commodities c on c.id = l.commodity_id where l.market_order_id = o.id), '[]') as lines
    from market_orders o where o.parent_id = ${parentId} and ${stateFilter}
    order by o.id desc limit ${page.pageSize} offset ${(page.pageIndex - 1) * page.pageSize}`)) as unknown as Rows;
  return found.rows.map((row) => ({
    id: Number(row.id),
    orderNo: String(row.orderNo),
    state: Number(row.state),
    totalAmount: Number(row.totalAmount),
    couponDiscount: Number(row.couponDiscount ?? 0),
    pointsUsed: Number(row.pointsUsed ?? 0),
    payAmount: Number(row.payAmount),
    carrier: (row.carrier as string | null) ?? null,
    trackingNo: (row.trackingNo as string | null) ?? null,
    createdAt: row.createdAt instanceof Date ? row.createdAt : new Date(String(row.createdAt)),
    lines: (typeof row.lines === 'string' ? JSON.parse(row.lines) : row.lines) as Record<string, unknown>[],
  }));
}

