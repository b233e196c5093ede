/**
 * The mall's calls on the parent app's channel (issue 29, docs/parent-app.md "The mall"): browse what
 * the child's school is offered, keep delivery addresses, order with a coupon and points, pay, cancel,
 * confirm receipt, comment, claim coupons, spend 葱米 in the points shop and apply for a refund of a
 * line. Every write takes an `Idempotency-Key` header, as the channel's other writes.
 */
import { z } from 'zod';
import { wechatAppPayParamsSchema, APP_PAY_SCENES, appPageQuerySchema } from './app.js';
import { mallAddressInputSchema } from './resources/mall.js';

export const APP_MALL_PATHS = {
  commodities: '/api/App/MallCommodities',
  commodity: '/api/App/MallCommodity',
  addresses: '/api/App/MallAddresses',
  saveAddress: '/api/App/SaveMallAddress',
  deleteAddress: '/api/App/DeleteMallAddress',
  placeOrder: '/api/App/PlaceMallOrder',
  payOrder: '/api/App/PayMallOrder',
  orders: '/api/App/MallOrders',
  order: '/api/App/MallOrder',
  cancelOrder: '/api/App/CancelMallOrder',
  confirmReceipt: '/api/App/ConfirmMallOrder',
  comment: '/api/App/CommentMallOrder',
  applyRefund: '/api/App/ApplyMallRefund',
  coupons: '/api/App/MallCoupons',
  claimableCoupons: '/api/App/ClaimableCoupons',
  claimCoupon: '/api/App/ClaimCoupon',
  points: '/api/App/Points',
  pointsShop: '/api/App/PointsShop',
  placePointsOrder: '/api/App/PlacePointsOrder',
  pointsOrders: '/api/App/PointsOrders',
} as const;

const id = z.number().int().min(1).max(2_147_483_647);
const queryId = z.coerce.number().int().min(1).max(2_147_483_647);

export const appMallCommoditiesQuerySchema = appPageQuerySchema.extend({ categoryId: queryId.optional() });
export const appIdQuerySchema = z.object({ id: queryId });
export const appMallOrdersQuerySchema = appPageQuerySchema.extend({ state: z.coerce.number().int().min(1).max(6).optional() });

export const appMallCommoditySchema = z.object({
  id: z.number(),
  title: z.string(),
  subtitle: z.string().nullable(),
  image: z.string().nullable(),
  unitPrice: z.number(),
  stockCount: z.number(),
  soldCount: z.number(),
  categoryId: z.number(),
  merchantId: z.number(),
});
export const appMallCommodityPageSchema = z.object({ rows: z.array(appMallCommoditySchema), total: z.number() });
export const appMallCommentSchema = z.object({ id: z.number(), score: z.number(), content: z.string(), images: z.array(z.string()), reply: z.string().nullable(), createdAt: z.string() });
export const appMallCommodityDetailSchema = appMallCommoditySchema.extend({ detail: z.string(), comments: z.array(appMallCommentSchema) });

export const appMallAddressSchema = z.object({
  id: z.number(),
  consigneeName: z.string(),
  consigneePhone: z.string(),
  province: z.string(),
  city: z.string(),
  area: z.string(),
  detail: z.string(),
  isDefault: z.boolean(),
});
/** Adds an address (no `id`) or corrects one of the parent's own. */
export const appSaveMallAddressSchema = mallAddressInputSchema.extend({ id: id.optional() });
export const appMallIdSchema = z.strictObject({ id });

export const appPayMallOrderSchema = z.strictObject({ orderId: id, scene: z.enum(APP_PAY_SCENES).default('app') });
export const appMallOrderIdSchema = z.strictObject({ orderId: id });

export const appPlacedMallOrderSchema = z.object({ orderId: z.number(), orderNo: z.string(), payAmount: z.number() });
/** What paying answers: `paid` (settled: demo, or nothing left to pay) or `pending` with what WeChat opens. */
export const appMallPaymentSchema = z.object({
  orderId: z.number(),
  outcome: z.enum(['paid', 'pending']),
  state: z.number(),
  payParams: wechatAppPayParamsSchema.nullable(),
  payUrl: z.string().nullable(),
});

export const appMallOrderLineSchema = z.object({
  lineNo: z.number(),
  commodityId: z.number(),
  title: z.string(),
  image: z.string().nullable(),
  quantity: z.number(),
  unitPrice: z.number(),
  amount: z.number(),
  paidAmount: z.number(),
  refundedAmount: z.number(),
});
export const appMallOrderSchema = z.object({
  id: z.number(),
  orderNo: z.string(),
  state: z.number(),
  totalAmount: z.number(),
  couponDiscount: z.number(),
  pointsUsed: z.number(),
  payAmount: z.number(),
  carrier: z.string().nullable(),
  trackingNo: z.string().nullable(),
  createdAt: z.string(),
  lines: z.array(appMallOrderLineSchema),
});
export const appMallOrdersSchema = z.object({ rows: z.array(appMallOrderSchema) });

export const appApplyMallRefundSchema = z.strictObject({ orderId: id, lineNo: z.number().int().min(1).max(20), reason: z.string().trim().min(1).max(150) });

export const appCouponGrantSchema = z.object({
  grantId: z.number(),
  couponId: z.number(),
  title: z.string(),
  kind: z.number(),
  amountOff: z.number().nullable(),
  discountPercent: z.number().nullable(),
  threshold: z.number(),
  startDate: z.string(),
  endDate: z.string(),
  state: z.number(),
  orderId: z.number().nullable(),
  isUsable: z.boolean(),
});
export const appClaimableCouponSchema = z.object({
  couponId: z.number(),
  title: z.string(),
  kind: z.number(),
  amountOff: z.number().nullable(),
  discountPercent: z.number().nullable(),
  threshold: z.number(),
  startDate: z.string(),
  endDate: z.string(),
  left: z.number(),
  held: z.number(),
  perParentLimit: z.number(),
});
export const appClaimCouponSchema = z.strictObject({ couponId: id });

export const appPointsSchema = z.object({
  balance: z.number(),
  rows: z.array(z.object({ id: z.number(), postedAt: z.string(), kind: z.number(), amount: z.number(), reason: z.string() })),
});
export const appPointsCommoditySchema = z.object({ id: z.number(), title: z.string(), image: z.string().nullable(), points: z.number(), stockCount: z.number(), detail: z.string().nullable() });
export const appPlacePointsOrderSchema = z.strictObject({ commodityId: id, quantity: z.number().int().min(1).max(20), addressId: id });
export const appPointsOrderSchema = z.object({ id: z.number(), orderNo: z.string().nullable(), state: z.number(), commodityId: z.number(), title: z.string(), quantity: z.number(), points: z.number(), createdAt: z.string() });

export type AppMallCommodity = z.infer<typeof appMallCommoditySchema>;
export type AppMallOrder = z.infer<typeof appMallOrderSchema>;
export type AppMallPayment = z.infer<typeof appMallPaymentSchema>;
export type AppCouponGrant = z.infer<typeof appCouponGrantSchema>;
export type AppClaimableCoupon = z.infer<typeof appClaimableCouponSchema>;
export type AppSaveMallAddress = z.infer<typeof appSaveMallAddressSchema>;
