/**
 * Refunding one line of a paid mall order through the finance refund flow: the line's refundable
 * amount (what it paid less what was refunded) is reserved by one conditional update, a refund of the
 * order's payment is written and sent under the payment lock exactly as refundManage sends one
 * (finance/refunds.ts: at most what is left of the payment, ledger reversal on success).
 */
import { MALL_ORDER_CANCELLED, MALL_ORDER_UNPAID, MarketOrder, REFUND_APPLIED, REFUND_REFUNDING, Refund } from '@campus/contract';
import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { refunds } from '../db/schema/index.js';
import { marketOrders } from '../db/schema/mall.js';
import { prepareRefund } from '../finance/refunds.js';
import type { PaymentProviders } from '../finance/providers/index.js';
import { badRequest, conflict, msg } from '../platform/errors.js';
import { updateRecords } from '../resources/engine/services.js';
import { writeStateHistory } from '../resources/engine/workflow.js';

type Rows = { rows: Record<string, unknown>[] };

/**
 * Reserves `amount` of what a line paid and has not had back, by one conditional update, in the
 * caller's transaction: a line never gives back more than it paid, however many refunds race.
 * Refuses (field `refundAmount`) an amount beyond what is left, naming what is.
 */
export async function reserveOnLine(tx: Executor, marketOrderLineId: number, amount: number): Promise<void> {
  const reserved = (await tx.execute(sql`
    update market_order_lines set refunded_amount = refunded_amount + ${amount}
    where id = ${marketOrderLineId} and paid_amount - refunded_amount >= ${amount}
    returning id`)) as unknown as Rows;
  if (reserved.rows[0]) return;
  const left = await leftOnLine(tx, marketOrderLineId);
  throw badRequest([{ path: 'refundAmount', ...msg('mall.refundExceedsLine', { refundable: (left / 100).toFixed(2) }) }]);
}

/** What each line paid less what it has had back, by line id; unknown lines are left out. */
export async function leftOnLines(db: Executor, lineIds: readonly number[]): Promise<Map<number, number>> {
  const ids = [...new Set(lineIds)];
  if (ids.length === 0) return new Map();
  const found = (await db.execute(
    sql`select id, paid_amount - refunded_amount as "left" from market_order_lines where id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`,
  )) as unknown as Rows;
  return new Map(found.rows.map((row) => [Number(row.id), Number(row.left)]));
}

/** What a line paid less what it has had back (0 for an unknown line). */
export async function leftOnLine(db: Executor, marketOrderLineId: number): Promise<number> {
  return (await leftOnLines(db, [marketOrderLineId])).get(marketOrderLineId) ?? 0;
}

/** What staff ask: a line of the order, the amount and why. */
export interface LineRefundInput {
  lineNo: number;
  refundAmount: number;
  reason: string;
}

/**
 * Reserves the amount on the line and puts a refund of the order's payment in flight, in the caller's
 * transaction; the caller sends it once committed (finance/refunds.ts sendRefund). Answers its id.
 */
export async function requestLineRefund(tx: Executor, payments: PaymentProviders, orderId: number, input: LineRefundInput, userId: number, now: Date): Promise<{ refundId: number }> {
  const [order] = await tx.select().from(marketOrders).where(eq(marketOrders.id, orderId)).for('update');
  if (!order || order.paymentId === null || order.state === MALL_ORDER_UNPAID || order.state === MALL_ORDER_CANCELLED) {
    const state = MarketOrder.fields.state.options.find((option) => option.value === order?.state);
    throw conflict(msg('error.wrongState', { state: { zh: state?.zh ?? '', en: state?.en ?? '' }, action: MarketOrder.actions[0].label }));
  }
  const line = (await tx.execute(sql`select id from market_order_lines where market_order_id = ${orderId} and line_no = ${input.lineNo}`)) as unknown as Rows;
  if (!line.rows[0]) throw badRequest([{ path: 'lineNo', ...msg('mall.lineNotFound', { lineNo: input.lineNo }) }]);
  const marketOrderLineId = Number(line.rows[0].id);
  await reserveOnLine(tx, marketOrderLineId, input.refundAmount);
  const [refund] = await tx
    .insert(refunds)
    .values({ paymentId: Number(order.paymentId), schoolId: Number(order.schoolId), reason: `${order.orderNo} #${input.lineNo}: ${input.reason}`, state: REFUND_APPLIED, marketOrderLineId })
    .returning();
  const prepared = await prepareRefund(tx, payments, refund as never, input.refundAmount, now);
  // The engine's update bumps the version and stamps the time as every edit of a refund does.
  await updateRecords(tx, Refund, [refund!.id], { values: { ...prepared, state: REFUND_REFUNDING }, where: eq(refunds.state, REFUND_APPLIED), now });
  await writeStateHistory(tx, { family: Refund.name, rowId: refund!.id, from: REFUND_APPLIED, to: REFUND_REFUNDING, verb: 'Refund', remark: input.reason, userId });
  return { refundId: refund!.id };
}
