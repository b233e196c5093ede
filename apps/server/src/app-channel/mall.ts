/**
 * The mall on the channel: what the routes (mall-routes.ts) answer, shaped for the app from the
 * mall's services (apps/server/src/mall/), which take the parent's id first and reach only its rows.
 * A parent's refund of a line is an application like the service's (refunds.ts): it lands in
 * refundManage, naming the order and the line, for an operator to send.
 */
import { MALL_ORDER_CANCELLED, MALL_ORDER_UNPAID, MarketOrder, type AppSaveMallAddress } from '@campus/contract';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/client.js';
import { commodityOf, myAddresses, releasedCommodities, saveAddress } from '../mall/catalog.js';
import { myOrders } from '../mall/orders.js';
import { myPoints } from '../mall/points.js';
import { badRequest, conflict, msg, notFound } from '../platform/errors.js';
import { applyForRefund } from './refunds.js';
import type { AppParent } from './sessions.js';

const iso = (value: unknown) => (value instanceof Date ? value : new Date(String(value))).toISOString();

/** The commodities released to the parent's school, paged. */
export async function commodityPage(db: Database, parent: AppParent, query: { page: number; size: number; categoryId?: number }, now: Date) {
  const { items, total } = await releasedCommodities(db, parent.id, { pageIndex: query.page, pageSize: query.size, categoryId: query.categoryId }, now);
  return { rows: items, total };
}

/** One released commodity with its shown comments. */
export async function commodityDetail(db: Database, parent: AppParent, id: number, now: Date) {
  const found = await commodityOf(db, parent.id, id, now);
  return {
    ...found,
    comments: found.comments.map((row) => ({
      id: Number(row.id),
      score: Number(row.score),
      content: String(row.content),
      images: [row.image1, row.image2, row.image3].filter((image): image is string => typeof image === 'string' && image !== ''),
      reply: (row.reply as string | null) ?? null,
      createdAt: iso(row.createdAt),
    })),
  };
}

/** The parent's addresses, the default first. */
export async function addressesOf(db: Database, parent: AppParent) {
  return (await myAddresses(db, parent.id)).map((row) => ({
    id: Number(row.id),
    consigneeName: String(row.consigneeName),
    consigneePhone: String(row.consigneePhone),
    province: String(row.province ?? ''),
    city: String(row.city ?? ''),
    area: String(row.area ?? ''),
    detail: String(row.detail ?? ''),
    isDefault: row.isDefault === true,
  }));
}

/** Adds or corrects one of the parent's addresses. */
export function saveAddressOf(db: Database, parent: AppParent, body: AppSaveMallAddress, now: Date) {
  const { id, ...input } = body;
  return saveAddress(db, parent.id, id ?? null, input, now);
}

/** The parent's orders (or the one asked), newest first. */
export async function ordersOf(db: Database, parent: AppParent, query: { page: number; size: number; state?: number; orderId?: number }) {
  const rows = await myOrders(db, parent.id, { pageIndex: query.page, pageSize: query.size, state: query.state, orderId: query.orderId });
  return rows.map((row) => ({
    ...row,
    createdAt: row.createdAt.toISOString(),
    lines: row.lines.map((line) => ({
      lineNo: Number(line.lineNo),
      commodityId: Number(line.commodityId),
      title: String(line.title),
      image: (line.image as string | null) ?? null,
      quantity: Number(line.quantity),
      unitPrice: Number(line.unitPrice),
      amount: Number(line.amount),
      paidAmount: Number(line.paidAmount),
      refundedAmount: Number(line.refundedAmount),
    })),
  }));
}

/** One of the parent's orders, or 404. */
export async function orderOf(db: Database, parent: AppParent, orderId: number) {
  const [order] = await ordersOf(db, parent, { page: 1, size: 1, orderId });
  if (!order) throw notFound();
  return order;
}

/** The parent's points: its balance and entries, newest first. */
export async function pointsOf(db: Database, parent: AppParent, query: { page: number; size: number }) {
  const { balance, items } = await myPoints(db, parent.id, { pageIndex: query.page, pageSize: query.size });
  return { balance, rows: items.map((item) => ({ ...item, postedAt: item.postedAt.toISOString() })) };
}

/**
 * Applies for a refund of a line of the parent's paid order: another parent's order is 404, an order
 * not paid (or cancelled) 409, a line with nothing left to refund 400. Answers the application.
 */
export async function applyForLineRefund(db: Database, server: FastifyInstance, parent: AppParent, input: { orderId: number; lineNo: number; reason: string }) {
  const found = (await db.execute(sql`
    select o.order_no as "orderNo", o.state, o.payment_id as "paymentId",
      l.id as "lineId", l.paid_amount - l.refunded_amount as "left"
    from market_orders o left join market_order_lines l on l.market_order_id = o.id and l.line_no = ${input.lineNo} where o.id = ${input.orderId} and o.parent_id = ${parent.id}`)) as unknown as { rows: Record<string, unknown>[] };
  const order = found.rows[0];
  if (!order) throw notFound();
  const state = Number(order.state);
  if (order.paymentId === null || state === MALL_ORDER_UNPAID || state === MALL_ORDER_CANCELLED) {
    const label = MarketOrder.fields.state.options.find((option) => option.value === state);
    throw conflict(msg('error.wrongState', { state: { zh: label?.zh ?? '', en: label?.en ?? '' }, action: MarketOrder.actions[0].label }));
  }
  if (order.left === null) throw badRequest([{ path: 'lineNo', ...msg('mall.lineNotFound', { lineNo: input.lineNo }) }]);
  if (Number(order.left) <= 0) throw badRequest([{ path: 'lineNo', ...msg('mall.lineNothingLeft') }]);
  return applyForRefund(db, server, parent, {
    paymentId: Number(order.paymentId),
    reason: `${String(order.orderNo)} #${input.lineNo}: ${input.reason}`,
    marketOrderLineId: Number(order.lineId),
  });
}
