/** The mall's calls of the channel (mall.ts over apps/server/src/mall/): reads limited to the parent's own rows, writes under an idempotency key. */
import {
  APP_MALL_PATHS,
  appApplyMallRefundSchema,
  appClaimableCouponSchema,
  appClaimCouponSchema,
  appCouponGrantSchema,
  appIdQuerySchema,
  appMallAddressSchema,
  appMallCommodityDetailSchema,
  appMallCommodityPageSchema,
  appMallCommoditiesQuerySchema,
  appMallIdSchema,
  appMallOrderIdSchema,
  appMallOrderSchema,
  appMallOrdersQuerySchema,
  appMallOrdersSchema,
  appMallPaymentSchema,
  appPageQuerySchema,
  appPayMallOrderSchema,
  appPlacedMallOrderSchema,
  appPlacePointsOrderSchema,
  appPointsCommoditySchema,
  appPointsOrderSchema,
  appPointsSchema,
  appSaveMallAddressSchema,
  mallCommentSchema,
  placeMallOrderSchema,
} from '@campus/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { commentOnOrder, deleteAddress } from '../mall/catalog.js';
import { claimableCoupons, claimCoupon, myCoupons } from '../mall/coupons.js';
import { cancelOrder, confirmReceipt, payOrder, placeOrder, placeOrderOnce } from '../mall/orders.js';
import { myPointsOrders, placePointsOrder, pointsShop } from '../mall/points-shop.js';
import { envelopeSchema, ok } from '../platform/envelope.js';
import { idempotencyHeadersSchema, keyInStatement, onceByKey } from './idempotency.js';
import { addressesOf, applyForLineRefund, commodityDetail, commodityPage, orderOf, ordersOf, pointsOf, saveAddressOf } from './mall.js';

const tags = ['App'];
const config = { parentChannel: true } as const;
const headers = idempotencyHeadersSchema;
const idAnswer = envelopeSchema(z.object({ id: z.number() }));
const nothing = envelopeSchema(z.null());

export const mallRoutes: FastifyPluginAsyncZod = async (app) => {
  const now = () => app.clock.now();

  app.get(
    APP_MALL_PATHS.commodities,
    {
      config,
      schema: { tags, summary: "Commodities on sale to the parent's school today, paged, optionally of a category (and its subcategories)", querystring: appMallCommoditiesQuerySchema, response: { 200: envelopeSchema(appMallCommodityPageSchema) } },
    },
    async (request) => ok(await commodityPage(app.db, request.parent, request.query, now())),
  );

  app.get(
    APP_MALL_PATHS.commodity,
    {
      config,
      schema: { tags, summary: 'One commodity on sale to the parent\'s school, with its detail and shown comments (404 for any other)', querystring: appIdQuerySchema, response: { 200: envelopeSchema(appMallCommodityDetailSchema) } },
    },
    async (request) => ok(await commodityDetail(app.db, request.parent, request.query.id, now())),
  );

  app.get(
    APP_MALL_PATHS.addresses,
    { config, schema: { tags, summary: "The parent's delivery addresses, the default first", response: { 200: envelopeSchema(z.array(appMallAddressSchema)) } } },
    async (request) => ok(await addressesOf(app.db, request.parent)),
  );

  app.post(
    APP_MALL_PATHS.saveAddress,
    {
      config,
      schema: {
        tags,
        summary: 'Add a delivery address (no id) or correct one of the parent\'s own; a default address makes the others not default',
        description: "The region is checked as the console checks it (400 on province, city or area). Another parent's address is 404.",
        headers,
        body: appSaveMallAddressSchema,
        response: { 200: idAnswer },
      },
    },
    async (request) => ok(await onceByKey(request, () => saveAddressOf(app.db, request.parent, request.body, now()))),
  );

  app.post(
    APP_MALL_PATHS.deleteAddress,
    { config, schema: { tags, summary: "Delete one of the parent's addresses (orders keep the address they were placed with)", headers, body: appMallIdSchema, response: { 200: nothing } } },
    async (request) => ok(await onceByKey(request, async () => (await deleteAddress(app.db, request.parent.id, request.body.id), null))),
  );

  app.post(
    APP_MALL_PATHS.placeOrder,
    {
      config,
      schema: {
        tags,
        summary: 'Place an order: lines, an address, optionally a coupon grant and points; stock, coupon and points are taken with it or nothing is',
        description:
          'Answers the order, unpaid, and what is left to pay (pay it with PayMallOrder within 30 minutes, else it closes and gives everything back). A commodity not on sale to the school or out of stock is 400 on lines; a coupon outside its scope, threshold or dates 400 on couponGrantId; points beyond the balance or the order 400 on points.',
        headers,
        body: placeMallOrderSchema,
        response: { 200: envelopeSchema(appPlacedMallOrderSchema) },
      },
    },
    async (request) => {
      // Most orders are one statement with their key (placeOrderOnce); the rest, replays included, go the usual way.
      const once = await placeOrderOnce(app.db, request.parent.id, request.body, now(), keyInStatement(request));
      return ok('placed' in once ? once.placed : await onceByKey(request, () => placeOrder(app.db, request.parent.id, request.body, now(), once.usual)));
    },
  );

  app.post(
    APP_MALL_PATHS.payOrder,
    {
      config,
      schema: {
        tags,
        summary: 'Pay an unpaid order through the finance provider',
        description:
          "The demo provider settles at once (outcome paid: the payment and the merchants' shares are recorded, the order is paid). WeChat Pay answers outcome pending with payParams (scene app) or payUrl (scene native); its notification pays the order. An order paid all by coupon and points is paid at once. Another parent's order is 404; an order not unpaid 409.",
        headers,
        body: appPayMallOrderSchema,
        response: { 200: envelopeSchema(appMallPaymentSchema) },
      },
    },
    async (request) =>
      ok(
        await onceByKey(request, async () => {
          const paid = await payOrder(app.db, app.payments, request.parent.id, request.body.orderId, now, request.body.scene);
          return { orderId: request.body.orderId, ...paid };
        }),
      ),
  );

  app.get(
    APP_MALL_PATHS.orders,
    { config, schema: { tags, summary: "The parent's orders with their lines, newest first, optionally in one state", querystring: appMallOrdersQuerySchema, response: { 200: envelopeSchema(appMallOrdersSchema) } } },
    async (request) => ok({ rows: await ordersOf(app.db, request.parent, request.query) }),
  );

  app.get(
    APP_MALL_PATHS.order,
    { config, schema: { tags, summary: "One of the parent's orders with its lines (404 for another parent's)", querystring: appIdQuerySchema, response: { 200: envelopeSchema(appMallOrderSchema) } } },
    async (request) => ok(await orderOf(app.db, request.parent, request.query.id)),
  );

  app.post(
    APP_MALL_PATHS.cancelOrder,
    { config, schema: { tags, summary: 'Cancel an unpaid order: its stock, coupon and points go back (409 once paid)', headers, body: appMallOrderIdSchema, response: { 200: nothing } } },
    async (request) => ok(await onceByKey(request, async () => (await cancelOrder(app.db, request.parent.id, request.body.orderId, now()), null))),
  );

  app.post(
    APP_MALL_PATHS.confirmReceipt,
    { config, schema: { tags, summary: 'Confirm receipt of a shipped order (it completes by itself 7 days later and earns points)', headers, body: appMallOrderIdSchema, response: { 200: nothing } } },
    async (request) => ok(await onceByKey(request, async () => (await confirmReceipt(app.db, request.parent.id, request.body.orderId, now()), null))),
  );

  app.post(
    APP_MALL_PATHS.comment,
    {
      config,
      schema: {
        tags,
        summary: 'Comment on a commodity of a received order: score, text, up to three images; once per order and commodity (409 again)',
        headers,
        body: mallCommentSchema,
        response: { 200: idAnswer },
      },
    },
    async (request) => ok(await onceByKey(request, () => commentOnOrder(app.db, request.parent.id, request.body, now()))),
  );

  app.post(
    APP_MALL_PATHS.applyRefund,
    {
      config,
      schema: {
        tags,
        summary: 'Apply for a refund of a line of a paid order; the application appears in refundManage, naming the order and line',
        headers,
        body: appApplyMallRefundSchema,
        response: { 200: envelopeSchema(z.object({ id: z.number(), state: z.number() })) },
      },
    },
    async (request) => ok(await onceByKey(request, () => applyForLineRefund(app.db, app, request.parent, request.body))),
  );

  app.get(
    APP_MALL_PATHS.coupons,
    { config, schema: { tags, summary: "The parent's coupons (grants), newest first, with whether each is usable today", response: { 200: envelopeSchema(z.array(appCouponGrantSchema)) } } },
    async (request) => ok(await myCoupons(app.db, request.parent.id, now())),
  );

  app.get(
    APP_MALL_PATHS.claimableCoupons,
    { config, schema: { tags, summary: 'The coupons the parent may claim today (open, aimed at the parent, some left, under its limit)', response: { 200: envelopeSchema(z.array(appClaimableCouponSchema)) } } },
    async (request) => ok(await claimableCoupons(app.db, request.parent.id, now())),
  );

  app.post(
    APP_MALL_PATHS.claimCoupon,
    {
      config,
      schema: {
        tags,
        summary: 'Claim a coupon: one grant while it is open, aimed at the parent, some are left and the parent holds fewer than its limit (409 otherwise)',
        headers,
        body: appClaimCouponSchema,
        response: { 200: envelopeSchema(z.object({ grantId: z.number() })) },
      },
    },
    async (request) => ok(await onceByKey(request, () => app.db.transaction((tx) => claimCoupon(tx, request.parent.id, request.body.couponId, now())))),
  );

  app.get(
    APP_MALL_PATHS.points,
    { config, schema: { tags, summary: "The parent's 葱米: its balance and entries, newest first", querystring: appPageQuerySchema, response: { 200: envelopeSchema(appPointsSchema) } } },
    async (request) => ok(await pointsOf(app.db, request.parent, request.query)),
  );

  app.get(
    APP_MALL_PATHS.pointsShop,
    { config, schema: { tags, summary: 'The points shop: goods on sale with stock, cheapest first', response: { 200: envelopeSchema(z.array(appPointsCommoditySchema)) } } },
    async () => ok(await pointsShop(app.db)),
  );

  app.post(
    APP_MALL_PATHS.placePointsOrder,
    {
      config,
      schema: {
        tags,
        summary: 'Order from the points shop to one of the parent\'s addresses: stock and points are taken together (400 on points beyond the balance, on commodityId out of stock)',
        headers,
        body: appPlacePointsOrderSchema,
        response: { 200: envelopeSchema(z.object({ orderId: z.number(), points: z.number() })) },
      },
    },
    async (request) => ok(await onceByKey(request, () => placePointsOrder(app.db, request.parent.id, request.body, now()))),
  );

  app.get(
    APP_MALL_PATHS.pointsOrders,
    { config, schema: { tags, summary: "The parent's points-shop orders, newest first", querystring: appPageQuerySchema, response: { 200: envelopeSchema(z.array(appPointsOrderSchema)) } } },
    async (request) => ok(await myPointsOrders(app.db, request.parent.id, { pageIndex: request.query.page, pageSize: request.query.size })),
  );
};
