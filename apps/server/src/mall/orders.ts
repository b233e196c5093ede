/**
 * Mall orders as parents place, pay, receive and cancel them (the app channel's calls are thin routes
 * over these), and the jobs that close unpaid orders and complete received ones. Every function takes
 * the parent's id first after the executor and reaches only that parent's rows (another parent's
 * order is 404). Stock is taken per line by one conditional update (`stock_count >= n`), in commodity
 * order so concurrent orders lock rows in one order: stock never goes below zero and an order is
 * placed whole or not at all (one transaction with its coupon and points).
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
  type PaymentChannel,
  type StoredRowOf,
  type WechatAppPayParams,
} from '@campus/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { Database, Executor } from '../db/client.js';
import { marketOrders } from '../db/schema/mall.js';
import { CHANNEL_OF_PROVIDER } from '../finance/payment-notifications.js';
import { recordPayment } from '../finance/payments.js';
import type { PaymentProviders } from '../finance/providers/index.js';
import { AppError, badRequest, conflict, msg, notFound } from '../platform/errors.js';
import { applySystemTransition } from '../resources/engine/workflow.js';
import { couponDiscount, redeemGrant, releaseGrantOf } from './coupons.js';
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

/** The parent's school; 404 for an unknown or disabled parent. */
async function schoolOfParent(db: Executor, parentId: number): Promise<number> {
  const found = (await db.execute(sql`select school_id as "schoolId" from parents where id = ${parentId} and enabled`)) as unknown as Rows;
  if (!found.rows[0]) throw notFound();
  return Number(found.rows[0].schoolId);
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

/**
 * Takes the stock of each line, or refuses the first line that cannot be had (not on sale to the
 * school, or too few left), naming its commodity; the caller's transaction then rolls back all.
 */
export async function takeStock(tx: Executor, schoolId: number | null, lines: readonly { commodityId: number; quantity: number }[], now: Date): Promise<TakenLine[]> {
  const merged = new Map<number, number>();
  for (const line of lines) merged.set(line.commodityId, (merged.get(line.commodityId) ?? 0) + line.quantity);
  const taken: TakenLine[] = [];
  for (const [commodityId, quantity] of [...merged].sort(([a], [b]) => a - b)) {
    // A staff order (no school check) may sell what is on sale; a parent's only what its school is offered.
    const offered = schoolId === null ? sql`true` : releasedToSchool(sql`c.id`, schoolId, formatBusinessDate(now));
    const updated = (await tx.execute(sql`
      update market_commodities c set stock_count = c.stock_count - ${quantity}, sold_count = coalesce(c.sold_count, 0) + ${quantity}
      where c.id = ${commodityId} and c.is_enabled and c.stock_count >= ${quantity} and ${offered}
      returning c.unit_price as "unitPrice", c.category_id as "categoryId", c.merchant_id as "merchantId"`)) as unknown as Rows;
    const row = updated.rows[0];
    if (!row) {
      const found = (await tx.execute(sql`select title, stock_count as stock from market_commodities c where c.id = ${commodityId} and c.is_enabled and ${offered}`)) as unknown as Rows;
      const title = found.rows[0] ? String(found.rows[0].title) : `#${commodityId}`;
      throw badRequest([{ path: 'lines', ...msg(found.rows[0] ? 'mall.outOfStock' : 'mall.notOnSale', { title }) }]);
    }
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

/** Writes an order's lines (line numbers from 1) with their paid amounts. */
async function insertLines(tx: Executor, orderId: number, lines: readonly TakenLine[], paid: readonly number[]): Promise<void> {
  const values = sql.join(
    lines.map((line, index) => sql`(${orderId}, ${index + 1}, ${line.commodityId}, ${line.merchantId}, ${line.quantity}, ${line.unitPrice}, ${line.amount}, ${paid[index]!}, 0)`),
    sql`, `,
  );
  await tx.execute(sql`insert into market_order_lines (market_order_id, line_no, commodity_id, merchant_id, quantity, unit_price, amount, paid_amount, refunded_amount) values ${values}`);
}

/**
 * A parent places an order: stock, coupon and points are taken in one transaction with the order and
 * its lines, or nothing is. Answers the order's id, number and what is left to pay.
 */
export async function placeOrder(db: Database, parentId: number, input: PlaceOrderInput, now: Date): Promise<{ orderId: number; orderNo: string; payAmount: number }> {
  if (input.lines.length === 0) throw badRequest([{ path: 'lines', ...msg('validation.required') }]);
  return db.transaction(async (tx) => {
    const schoolId = await schoolOfParent(tx, parentId);
    const address = (await tx.execute(sql`
      select consignee_name as name, consignee_phone as phone, province, city, area, detail from market_addresses where id = ${input.addressId} and parent_id = ${parentId}`)) as unknown as Rows;
    const place = address.rows[0];
    if (!place) throw notFound(msg('error.addressNotFound'));
    const lines = await takeStock(tx, schoolId, input.lines, now);
    const total = lines.reduce((sum, line) => sum + line.amount, 0);
    const [order] = await tx
      .insert(marketOrders)
      .values({
        state: MALL_ORDER_UNPAID,
        parentId,
        schoolId,
        totalAmount: total,
        payAmount: total,
        consigneeName: String(place.name),
        consigneePhone: String(place.phone),
        deliveryAddress: [place.province, place.city, place.area, place.detail].filter(Boolean).join(' '),
        remark: input.remark ?? null,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: marketOrders.id });
    const orderId = order!.id;
    const orderNo = mallOrderNumber(orderId, now);
    let discount = 0;
    if (input.couponGrantId) {
      const coupon = await redeemGrant(tx, parentId, input.couponGrantId, orderId, now);
      discount = await couponDiscount(tx, coupon, lines);
    }
    const points = input.points ?? 0;
    const pointsValue = Math.floor(points / POINTS_PER_FEN);
    if (pointsValue > total - discount) throw badRequest([{ path: 'points', ...msg('mall.pointsBeyondOrder') }]);
    if (points > 0) await postPoints(tx, parentId, { kind: POINTS_SPEND_ORDER, amount: -points, source: `MarketOrder:${orderId}`, reason: orderNo, now });
    const payAmount = total - discount - pointsValue;
    await insertLines(tx, orderId, lines, paidAmounts(lines.map((line) => line.amount), discount + pointsValue));
    await tx
      .update(marketOrders)
      .set({ orderNo, couponDiscount: discount, couponGrantId: input.couponGrantId ?? null, pointsUsed: points, payAmount })
      .where(eq(marketOrders.id, orderId));
    return { orderId, orderNo, payAmount };
  });
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

