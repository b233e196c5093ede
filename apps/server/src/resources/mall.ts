/**
 * The market shop's console rules (issue 29): windows and audiences of releases and ads; staff orders
 * taking stock as parents' orders do and giving it back when they end unpaid; shipping; the points
 * shop's orders taking points; coupons' values, targets, disabling and sending; comments naming a
 * received order. What parents do is in apps/server/src/mall/.
 */
import {
  COUPON_ACTIVE,
  COUPON_DISABLED,
  CommodityComment,
  CommodityOrder,
  Coupon,
  MALL_ORDER_UNPAID,
  MarketOrder,
  POINTS_ORDER_PAID,
  PointsEarningSetting,
} from '@campus/contract';
import { eq, sql } from 'drizzle-orm';
import { intArray } from '../platform/sql-terms.js';
import type { Executor } from '../db/client.js';
import { coupons, marketOrderLines, marketOrders } from '../db/schema/mall.js';
import { commentTarget } from '../mall/catalog.js';
import { sendCoupon } from '../mall/coupons.js';
import { closeUnpaidOrders, completeReceivedOrders, mallOrderNumber, marketOrderOfAttach, releaseUnpaidOrder, settleOrderPayment, takeStock } from '../mall/orders.js';
import { withOrderPayments } from '../finance/payment-notifications.js';
import type { NotificationHandler } from '../finance/notifications.js';
import { pointsEarningStore } from '../mall/points-earning.js';
import { releasePointsOrder, takePointsOrder } from '../mall/points-shop.js';
import { badRequest, conflict, msg } from '../platform/errors.js';
import type { RecurringJob } from '../platform/recurring-jobs.js';
import { defineFamilyModule } from './engine/modules.js';
import { updateRecords } from './engine/services.js';
import { loadInScope, recordOperation } from './engine/write.js';
import { requestLineRefund, type LineRefundInput } from '../mall/refunds.js';
import { sendRefund } from '../finance/refunds.js';

/** Closes orders unpaid for 30 minutes every minute (mall/orders.ts closeUnpaidOrders). */
const closeUnpaidJob: RecurringJob = { name: 'mall-close-unpaid', everyMs: 60_000, run: (app) => closeUnpaidOrders(app.db, app.clock.now()) };
/** Completes orders received 7 days ago, every hour. */
const completeReceivedJob: RecurringJob = { name: 'mall-complete-received', everyMs: 3_600_000, run: (app) => completeReceivedOrders(app.db, app.clock.now()) };

/** Sets what an order's lines carry beyond the engine's amounts: the merchant, and what each paid (all of it: a staff order has no coupon or points). */
async function completeStaffOrder(db: Executor, orderId: number, now: Date): Promise<void> {
  const lines = await db.select().from(marketOrderLines).where(eq(marketOrderLines.marketOrderId, orderId));
  const taken = await takeStock(
    db,
    null,
    lines.map((line) => ({ commodityId: Number(line.commodityId), quantity: Number(line.quantity) })),
    now,
  );
  const merchantOf = new Map(taken.map((line) => [line.commodityId, line.merchantId]));
  await db.execute(sql`update market_order_lines l set paid_amount = l.amount, merchant_id = m.merchant_id
    from (select unnest(${intArray(merchantOf.keys())}) as commodity_id, unnest(${intArray(merchantOf.values())}) as merchant_id) m
    where l.market_order_id = ${orderId} and l.commodity_id = m.commodity_id`);
  await db
    .update(marketOrders)
    .set({ orderNo: mallOrderNumber(orderId, now), payAmount: sql`${marketOrders.totalAmount}` })
    .where(eq(marketOrders.id, orderId));
}

export const marketOrderModule = defineFamilyModule(MarketOrder, {
  recurringJobs: [closeUnpaidJob, completeReceivedJob],
  // The lines took stock when the order was placed: changing them would need a new order.
  beforeWrite(_ctx, { op, values }) {
    if (op === 'update' && values.items !== undefined) throw badRequest([{ path: 'items', ...msg('mall.linesFixed') }]);
    return values;
  },
  async afterWrite(ctx, { op, ids }) {
    if (op === 'add') for (const id of ids) await completeStaffOrder(ctx.db, id, ctx.clock.now());
  },
  async beforeDelete(ctx, rows) {
    for (const row of rows) if (row.state === MALL_ORDER_UNPAID) await releaseUnpaidOrder(ctx.db, row as never, ctx.clock.now());
    await ctx.db.execute(sql`update coupon_grants set order_id = null where order_id in (${sql.join(rows.map((row) => sql`${row.id}`), sql`, `)})`);
  },
  actions: {
    /** Refunds part of a line through the refund flow: the refund is sent once its transaction committed. */
    RefundLine: async (ctx, id, input) => {
      const { refundId } = await ctx.db.transaction(async (tx) => {
        await loadInScope(ctx, tx, id, true);
        return requestLineRefund(tx, ctx.server.payments, id, input as unknown as LineRefundInput, ctx.user.id, ctx.clock.now());
      });
      const answer = await sendRefund(ctx.server.db, ctx.server.payments, refundId, () => ctx.clock.now());
      return { refundId, state: answer?.state ?? null };
    },
  },
  transitions: {
    Cancel: async (ctx, row) => {
      await releaseUnpaidOrder(ctx.db, row as never, ctx.clock.now());
    },
  },
});

export const commodityOrderModule = defineFamilyModule(CommodityOrder, {
  settings: [{ def: PointsEarningSetting, store: pointsEarningStore }],
  beforeWrite(_ctx, { op, values }) {
    if (op === 'update' && (values.commodityId !== undefined || values.quantity !== undefined || values.parentId !== undefined)) {
      throw badRequest([{ path: 'commodityId', ...msg('mall.linesFixed') }]);
    }
    return values;
  },
  async afterWrite(ctx, { op, ids, values }) {
    if (op !== 'add') return;
    for (const id of ids) {
      await takePointsOrder(ctx.db, { id, parentId: Number(values.parentId), commodityId: Number(values.commodityId), quantity: Number(values.quantity) }, ctx.clock.now());
    }
  },
  async beforeDelete(ctx, rows) {
    for (const row of rows) if (row.state === POINTS_ORDER_PAID) await releasePointsOrder(ctx.db, row as never, ctx.clock.now());
  },
  transitions: {
    Cancel: async (ctx, row) => {
      await releasePointsOrder(ctx.db, row as never, ctx.clock.now());
    },
  },
});

/** A coupon's value fits its kind, its targets are named, and its total never drops below what was issued. */
export const couponModule = defineFamilyModule(Coupon, {
  // Its value by kind and its targets by target kind are declared (`requiredWhen`), its total at least what it issued (`atLeast`).
  actions: {
    /** Disables the coupon: neither granted nor redeemed from now on (grants already held stay, unusable). */
    Disable: async (ctx, id) =>
      ctx.db.transaction(async (tx) => {
        const [coupon] = await tx.select({ state: coupons.state }).from(coupons).where(eq(coupons.id, id)).for('update');
        if (coupon?.state !== COUPON_ACTIVE) throw conflict(msg('mall.couponDisabled'));
        return (await updateRecords(tx, Coupon, [id], { values: { state: COUPON_DISABLED }, now: ctx.clock.now(), log: { userId: ctx.user.id, action: 'disable' } }))[0];
      }),
    /**
     * One grant to each target parent who has none from this send: the send's key is the coupon's
     * version, so a repeated click on an unchanged coupon grants nothing twice.
     */
    Send: async (ctx, id) =>
      ctx.db.transaction(async (tx) => {
        const [coupon] = await tx.select({ version: coupons.version }).from(coupons).where(eq(coupons.id, id));
        const result = await sendCoupon(tx, id, `send:${coupon?.version ?? 0}`, ctx.clock.now());
        await recordOperation(tx, ctx, 'send', [id], { granted: result.granted });
        return result;
      }),
  },
});

/** A comment names a received order holding the commodity: its parent is the order's (the school follows the order). */
export const commodityCommentModule = defineFamilyModule(CommodityComment, {
  async beforeWrite(ctx, { op, values, existing }) {
    if (op === 'add') {
      const target = await commentTarget(ctx.db, null, Number(values.orderId), Number(values.commodityId));
      return { ...values, parentId: target.parentId };
    }
    if ((values.orderId !== undefined && values.orderId !== existing?.orderId) || (values.commodityId !== undefined && values.commodityId !== existing?.commodityId)) {
      throw badRequest([{ path: 'orderId', ...msg('mall.linesFixed') }]);
    }
    return values;
  },
});


/** The payment notifications of mall orders (the attach names the order: mall/orders.ts payOrder); the merchants' shares are posted with the payment. */
export const withMarketOrderPayments = (next: NotificationHandler<'payment'>): NotificationHandler<'payment'> =>
  withOrderPayments(
    {
      orderOfAttach: marketOrderOfAttach,
      settle: settleOrderPayment,
      payerOf: async (tx, orderId) => (await tx.select({ schoolId: marketOrders.schoolId, parentId: marketOrders.parentId }).from(marketOrders).where(eq(marketOrders.id, orderId)))[0],
    },
    next,
  );
