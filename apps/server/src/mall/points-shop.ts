/**
 * The points shop (葱米): a parent's order takes the commodity's stock (one conditional update) and
 * the parent's points (locked per parent, never below zero) in one transaction; a cancelled order
 * gives both back.
 */
import { POINTS_ORDER_PAID, POINTS_RETURN, POINTS_SPEND_POINTS_ORDER, formatBusinessDate } from '@campus/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { Database, Executor } from '../db/client.js';
import { pointsCommodities, pointsOrders } from '../db/schema/mall.js';
import { badRequest, msg, notFound } from '../platform/errors.js';
import { postPoints } from './points.js';

/** `DH` + the day (China time) + the id. */
const pointsOrderNumber = (id: number, at: Date) => `DH${formatBusinessDate(at).replaceAll('-', '')}${String(id).padStart(8, '0')}`;

/**
 * Takes a points order's stock and the parent's points (locked per parent, never below zero), in the
 * order's transaction. Answers the points taken.
 */
export async function takePointsOrder(db: Executor, order: { id: number; parentId: number; commodityId: number; quantity: number }, now: Date): Promise<number> {
  const taken = await db
    .update(pointsCommodities)
    .set({ stockCount: sql`${pointsCommodities.stockCount} - ${order.quantity}`, soldCount: sql`coalesce(${pointsCommodities.soldCount}, 0) + ${order.quantity}` })
    .where(and(eq(pointsCommodities.id, order.commodityId), eq(pointsCommodities.isEnabled, true), sql`${pointsCommodities.stockCount} >= ${order.quantity}`))
    .returning({ points: pointsCommodities.points, title: pointsCommodities.title });
  if (!taken[0]) throw badRequest([{ path: 'commodityId', ...msg('mall.outOfStock', { title: `#${order.commodityId}` }) }]);
  const points = Number(taken[0].points) * order.quantity;
  const orderNo = pointsOrderNumber(order.id, now);
  await postPoints(db, order.parentId, { kind: POINTS_SPEND_POINTS_ORDER, amount: -points, source: `CommodityOrder:${order.id}`, reason: `${taken[0].title} ×${order.quantity}`, now });
  await db.update(pointsOrders).set({ points, orderNo }).where(eq(pointsOrders.id, order.id));
  return points;
}

/** Gives back a points order's stock and points (cancelled, or deleted before shipping). */
export async function releasePointsOrder(db: Executor, order: { id: number; parentId: number; commodityId: number; quantity: number; points: number | null; orderNo: string | null }, now: Date): Promise<void> {
  await db
    .update(pointsCommodities)
    .set({ stockCount: sql`${pointsCommodities.stockCount} + ${order.quantity}`, soldCount: sql`greatest(coalesce(${pointsCommodities.soldCount}, 0) - ${order.quantity}, 0)` })
    .where(eq(pointsCommodities.id, order.commodityId));
  await postPoints(db, order.parentId, { kind: POINTS_RETURN, amount: Number(order.points ?? 0), source: `CommodityOrder:${order.id}`, reason: order.orderNo ?? '', now });
}

/** A parent orders from the points shop, delivered to one of its addresses. Answers the order's id and the points taken. */
export async function placePointsOrder(db: Database, parentId: number, input: { commodityId: number; quantity: number; addressId: number }, now: Date): Promise<{ orderId: number; points: number }> {
  return db.transaction(async (tx) => {
    const found = (await tx.execute(sql`
      select p.school_id as "schoolId", a.consignee_name as name, a.consignee_phone as phone, concat_ws(' ', a.province, a.city, a.area, a.detail) as address
      from parents p join market_addresses a on a.parent_id = p.id where p.id = ${parentId} and p.enabled and a.id = ${input.addressId}`)) as unknown as { rows: Record<string, unknown>[] };
    const place = found.rows[0];
    if (!place) throw notFound(msg('error.addressNotFound'));
    const [order] = await tx
      .insert(pointsOrders)
      .values({
        state: POINTS_ORDER_PAID,
        parentId,
        schoolId: Number(place.schoolId),
        commodityId: input.commodityId,
        quantity: input.quantity,
        consigneeName: String(place.name),
        consigneePhone: String(place.phone),
        deliveryAddress: String(place.address),
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: pointsOrders.id });
    const points = await takePointsOrder(tx, { id: order!.id, parentId, commodityId: input.commodityId, quantity: input.quantity }, now);
    return { orderId: order!.id, points };
  });
}

/** What the points shop offers: enabled goods with stock, cheapest first. */
export async function pointsShop(db: Executor) {
  const found = (await db.execute(sql`select id, title, image, points, stock_count as "stockCount", detail from points_commodities
    where is_enabled and stock_count > 0 order by points, id limit 100`)) as unknown as { rows: Record<string, unknown>[] };
  return found.rows.map((row) => ({ id: Number(row.id), title: String(row.title), image: (row.image as string | null) ?? null, points: Number(row.points), stockCount: Number(row.stockCount), detail: (row.detail as string | null) ?? null }));
}

/** A parent's points orders, newest first. */
export async function myPointsOrders(db: Executor, parentId: number, page: { pageIndex: number; pageSize: number }) {
  const found = (await db.execute(sql`select o.id, o.order_no as "orderNo", o.state, o.commodity_id as "commodityId", c.title, o.quantity, coalesce(o.points, 0) as points, o.created_at as "createdAt"
    from points_orders o join points_commodities c on c.id = o.commodity_id where o.parent_id = ${parentId}
    order by o.id desc limit ${page.pageSize} offset ${(page.pageIndex - 1) * page.pageSize}`)) as unknown as { rows: Record<string, unknown>[] };
  return found.rows.map((row) => ({
    id: Number(row.id),
    orderNo: (row.orderNo as string | null) ?? null,
    state: Number(row.state),
    commodityId: Number(row.commodityId),
    title: String(row.title),
    quantity: Number(row.quantity),
    points: Number(row.points),
    createdAt: new Date(String(row.createdAt)).toISOString(),
  }));
}
