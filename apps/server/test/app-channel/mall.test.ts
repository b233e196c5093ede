import { createVerify } from 'node:crypto';
import { API_PATHS, APP_MALL_PATHS, APP_PATHS, COUPON_TARGET_ALL, FUND_ACCOUNT_MERCHANT, MALL_ORDER_CANCELLED, MALL_ORDER_PAID, MALL_ORDER_RECEIVED, MALL_ORDER_UNPAID, REFUND_APPLIED, formatBusinessDate } from '@campus/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coupons, marketCommodities, marketOrders } from '../../src/db/schema/mall.js';
import { postPoints } from '../../src/mall/points.js';
import { refunds, users } from '../../src/db/schema/index.js';
import { checkLedger } from '../../src/finance/ledger-check.js';
import { hashPassword, md5Hex } from '../../src/platform/passwords.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { mallCatalogue, pointsCommodity, releasedCommodity } from '../mall/mall-fixtures.js';
import { unique } from '../resources/fixtures.js';
import { FAKE_WECHAT, fakeWechatEnv, fakeWechatFetch, paidNotification, type ReceivedOrders } from './fake-wechatpay.js';
import { asParent, demoParents, setParentPassword, signInParent, type DemoParent } from './support.js';

type Rows<T> = { rows: T[] };
const ADDRESS = { consigneeName: '王芳', consigneePhone: '13800001234', province: '浙江省', city: '杭州市', area: '西湖区', detail: '文三路 100 号', isDefault: true };

async function signedIn(t: TestApp, parent: DemoParent): Promise<string> {
  await setParentPassword(t, parent.id);
  return signInParent(t, parent.phoneNum);
}

/** A coupon for every parent: 10 yuan off from 20 yuan, one per parent. */
async function everyoneCoupon(t: TestApp): Promise<number> {
  const day = (days: number) => formatBusinessDate(new Date(t.clock.now().getTime() + days * 86_400_000));
  const [coupon] = await t.db
    .insert(coupons)
    .values({ title: `满20减10-${unique()}`, state: 1, scope: 1, kind: 1, amountOff: 1_000, threshold: 2_000, total: 50, issued: 0, perParentLimit: 1, startDate: day(-1), endDate: day(30), targetKind: COUPON_TARGET_ALL })
    .returning({ id: coupons.id });
  return coupon!.id;
}

async function data<T = unknown>(response: { statusCode: number; body: string; json(): { data: T } }): Promise<T> {
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

describe('the mall through the channel, with the demo provider', () => {
  let t: TestApp;
  let parent: DemoParent;
  let stranger: DemoParent;
  let token: string;
  let strangerToken: string;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp();
    const all = await demoParents(t);
    parent = all[0]!;
    stranger = all.find((candidate) => candidate.id !== parent.id)!;
    token = await signedIn(t, parent);
    strangerToken = await signedIn(t, stranger);
    admin = await t.loginAs('admin');
  });
  afterAll(() => t.close());

  it('browses, keeps an address, claims a coupon, orders with coupon and points, pays, is shipped, confirms, comments and applies for a refund of a line', async () => {
    const catalogue = await mallCatalogue(t);
    const commodityId = await releasedCommodity(t, { stock: 5, unitPrice: 3_000, ...catalogue });
    const couponId = await everyoneCoupon(t);
    await t.db.transaction((tx) => postPoints(tx, parent.id, { kind: 1, amount: 500, source: `test:${unique()}`, reason: 'test', now: t.clock.now() }));

    const page = await data<{ rows: { id: number }[]; total: number }>(await asParent(t, token, { method: 'GET', url: `${APP_MALL_PATHS.commodities}?page=1&size=100&categoryId=${catalogue.categoryId}` }));
    expect(page.rows.map((row) => row.id)).toEqual([commodityId]);
    expect(await data(await asParent(t, token, { method: 'GET', url: `${APP_MALL_PATHS.commodity}?id=${commodityId}` }))).toMatchObject({ id: commodityId, unitPrice: 3_000, comments: [] });

    const { id: addressId } = await data<{ id: number }>(await asParent(t, token, { method: 'POST', url: APP_MALL_PATHS.saveAddress, payload: ADDRESS }));
    expect((await data<{ id: number }[]>(await asParent(t, token, { method: 'GET', url: APP_MALL_PATHS.addresses })))[0]).toMatchObject({ id: addressId, isDefault: true });
    // Another parent's address is as absent as one that does not exist.
    expect((await asParent(t, strangerToken, { method: 'POST', url: APP_MALL_PATHS.saveAddress, payload: { ...ADDRESS, id: addressId } })).statusCode).toBe(404);

    const claimable = await data<{ couponId: number }[]>(await asParent(t, token, { method: 'GET', url: APP_MALL_PATHS.claimableCoupons }));
    expect(claimable.map((coupon) => coupon.couponId)).toContain(couponId);
    const { grantId } = await data<{ grantId: number }>(await asParent(t, token, { method: 'POST', url: APP_MALL_PATHS.claimCoupon, payload: { couponId } }));
    expect((await asParent(t, token, { method: 'POST', url: APP_MALL_PATHS.claimCoupon, payload: { couponId } })).statusCode).toBe(409);
    expect((await data<{ grantId: number; isUsable: boolean }[]>(await asParent(t, token, { method: 'GET', url: APP_MALL_PATHS.coupons })))[0]).toMatchObject({ grantId, isUsable: true });

    // 2 × 30 yuan, less 10 yuan of coupon and 100 points (1 yuan).
    const order = { lines: [{ commodityId, quantity: 2 }], addressId, couponGrantId: grantId, points: 100 };
    const headers = { 'idempotency-key': `place-${unique()}` };
    const placed = await data<{ orderId: number; payAmount: number }>(await asParent(t, token, { method: 'POST', url: APP_MALL_PATHS.placeOrder, headers, payload: order }));
    expect(placed.payAmount).toBe(6_000 - 1_000 - 100);
    // A retry after a lost answer: the same order, no second one taken.
    expect(await data(await asParent(t, token, { method: 'POST', url: APP_MALL_PATHS.placeOrder, headers, payload: order }))).toEqual(placed);
    const [stock] = await t.db.select({ stock: marketCommodities.stockCount }).from(marketCommodities).where(eq(marketCommodities.id, commodityId));
    expect(stock!.stock).toBe(3);
    expect((await data<{ balance: number }>(await asParent(t, token, { method: 'GET', url: APP_MALL_PATHS.points }))).balance).toBe(400);

    const paid = await data(await asParent(t, token, { method: 'POST', url: APP_MALL_PATHS.payOrder, payload: { orderId: placed.orderId } }));
    expect(paid).toEqual({ orderId: placed.orderId, outcome: 'paid', state: MALL_ORDER_PAID, payParams: null, payUrl: null });
    const [stored] = await t.db.select().from(marketOrders).where(eq(marketOrders.id, placed.orderId));
    const merchant = (await t.db.execute(sql`select sum(amount)::bigint as amount from agent_fund_entries where payment_id = ${stored!.paymentId} and account_type = ${FUND_ACCOUNT_MERCHANT}`)) as unknown as Rows<{ amount: number }>;
    expect(Number(merchant.rows[0]!.amount)).toBe(Math.floor((placed.payAmount * 90) / 100));
    // The day's transaction summary shows the merchant's share beside the others: the four add up to the net.
    const today = formatBusinessDate(t.clock.now());
    const summary = await t.injectAs(admin, { method: 'POST', url: '/api/TransactionStatistics/Search', payload: { pageIndex: 1, pageSize: 50, dayFrom: today, dayTo: today, schoolId: parent.schoolId } });
    const totals = (await data<{ totals: Record<string, number> }>(summary)).totals;
    expect(totals.merchantShare).toBeGreaterThanOrEqual(Number(merchant.rows[0]!.amount));
    expect(totals.companyShare! + totals.agentShare! + totals.schoolShare! + totals.merchantShare!).toBe(totals.net);

    const ship = await t.injectAs(admin, { method: 'POST', url: '/api/MarketOrder/Ship', payload: { id: placed.orderId, carrier: '顺丰', trackingNo: 'SF2000000001' } });
    expect(ship.statusCode, ship.body).toBe(200);
    await data(await asParent(t, token, { method: 'POST', url: APP_MALL_PATHS.confirmReceipt, payload: { orderId: placed.orderId } }));
    const mine = await data<{ state: number; trackingNo: string; lines: { lineNo: number; paidAmount: number }[] }>(await asParent(t, token, { method: 'GET', url: `${APP_MALL_PATHS.order}?id=${placed.orderId}` }));
    expect(mine).toMatchObject({ state: MALL_ORDER_RECEIVED, trackingNo: 'SF2000000001', lines: [{ lineNo: 1, paidAmount: placed.payAmount }] });

    const comment = { orderId: placed.orderId, commodityId, score: 5, content: '孩子很喜欢' };
    await data(await asParent(t, token, { method: 'POST', url: APP_MALL_PATHS.comment, payload: comment }));
    expect((await asParent(t, token, { method: 'POST', url: APP_MALL_PATHS.comment, payload: comment })).statusCode).toBe(409);
    const detail = await data<{ comments: { content: string }[] }>(await asParent(t, token, { method: 'GET', url: `${APP_MALL_PATHS.commodity}?id=${commodityId}` }));
    expect(detail.comments.map((row) => row.content)).toEqual(['孩子很喜欢']);

    const refund = await data<{ id: number; state: number }>(await asParent(t, token, { method: 'POST', url: APP_MALL_PATHS.applyRefund, payload: { orderId: placed.orderId, lineNo: 1, reason: '尺寸不合适' } }));
    expect(refund.state).toBe(REFUND_APPLIED);
    const application = (await t.db.execute(sql`select payment_id as "paymentId", reason from refunds where id = ${refund.id}`)) as unknown as Rows<{ paymentId: number; reason: string }>;
    expect(Number(application.rows[0]!.paymentId)).toBe(Number(stored!.paymentId));
    expect(application.rows[0]!.reason).toContain(`${stored!.orderNo} #1`);
    expect((await asParent(t, token, { method: 'POST', url: APP_MALL_PATHS.applyRefund, payload: { orderId: placed.orderId, lineNo: 9, reason: '无此行' } })).statusCode).toBe(400);
  });

  it("moves a line's refunded amount when its application is approved on refundManage, never above what the line paid", async () => {
    const catalogue = await mallCatalogue(t);
    const cheap = await releasedCommodity(t, { stock: 5, unitPrice: 1_000, ...catalogue });
    const dear = await releasedCommodity(t, { stock: 5, unitPrice: 4_000, ...catalogue });
    const { id: addressId } = await data<{ id: number }>(await asParent(t, token, { method: 'POST', url: APP_MALL_PATHS.saveAddress, payload: ADDRESS }));
    const lines = [{ commodityId: cheap, quantity: 1 }, { commodityId: dear, quantity: 1 }];
    const { orderId } = await data<{ orderId: number }>(await asParent(t, token, { method: 'POST', url: APP_MALL_PATHS.placeOrder, payload: { lines, addressId } }));
    await data(await asParent(t, token, { method: 'POST', url: APP_MALL_PATHS.payOrder, payload: { orderId } }));
    const lineState = async () =>
      ((await t.db.execute(sql`select line_no as "lineNo", commodity_id as "commodityId", paid_amount as paid, refunded_amount as refunded from market_order_lines
        where market_order_id = ${orderId} order by line_no`)) as unknown as Rows<{ lineNo: number; commodityId: number; paid: number; refunded: number }>).rows.map((row) => ({
        lineNo: Number(row.lineNo),
        commodityId: Number(row.commodityId),
        paid: Number(row.paid),
        refunded: Number(row.refunded),
      }));
    const [cheapLine, dearLine] = await lineState();
    expect(cheapLine).toMatchObject({ commodityId: cheap, paid: 1_000, refunded: 0 });
    await t.db.update(users).set({ refundPasswordHash: await hashPassword(md5Hex('Refund@29')) }).where(eq(users.loginName, 'admin'));
    const apply = async (lineNo: number) =>
      (await data<{ id: number }>(await asParent(t, token, { method: 'POST', url: APP_MALL_PATHS.applyRefund, payload: { orderId, lineNo, reason: '不想要了' } }))).id;
    const approve = (id: number, refundAmount?: number) =>
      t.injectAs(admin, { method: 'POST', url: '/api/Refund/Refund', payload: { id, ...(refundAmount === undefined ? {} : { refundAmount }), reauthPassword: md5Hex('Refund@29') } });
    const paymentRefunded = async () => {
      const found = (await t.db.execute(sql`select p.refunded_amount as refunded from payment_records p join market_orders o on o.payment_id = p.id where o.id = ${orderId}`)) as unknown as Rows<{ refunded: number }>;
      return Number(found.rows[0]!.refunded);
    };

    // Approved without an amount, the application asks what is left on its line — not on the whole payment.
    const first = await apply(cheapLine!.lineNo);
    const listed = await data<{ items: { id: number; askedAmount: number }[] }>(await t.injectAs(admin, { method: 'POST', url: '/api/Refund/Search', payload: { pageIndex: 1, pageSize: 20 } }));
    expect(listed.items.find((row) => row.id === first)?.askedAmount).toBe(1_000);
    const approved = await approve(first);
    expect(approved.statusCode, approved.body).toBe(200);
    expect((await lineState()).map((line) => line.refunded)).toEqual([1_000, 0]);
    expect(await paymentRefunded()).toBe(1_000);
    // Nothing is left on it: a new application is refused.
    expect((await asParent(t, token, { method: 'POST', url: APP_MALL_PATHS.applyRefund, payload: { orderId, lineNo: cheapLine!.lineNo, reason: '再退' } })).statusCode).toBe(400);

    // Staff refund part of the other line on mallOrderManage while its application waits; approving more than is left is refused whole.
    const second = await apply(dearLine!.lineNo);
    const refundLine = await t.injectAs(admin, { method: 'POST', url: '/api/MarketOrder/RefundLine', payload: { id: orderId, lineNo: dearLine!.lineNo, refundAmount: 3_000, reason: '破损', reauthPassword: md5Hex('Refund@29') } });
    expect(refundLine.statusCode, refundLine.body).toBe(200);
    const tooMuch = await approve(second, 1_500);
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().data.errors[0].path).toBe('refundAmount');
    expect((await lineState()).map((line) => line.refunded)).toEqual([1_000, 3_000]);
    expect(await paymentRefunded()).toBe(4_000);
    const [secondRow] = await t.db.select().from(refunds).where(eq(refunds.id, second));
    expect(secondRow!.state).toBe(REFUND_APPLIED);
    expect((await approve(second, 1_000)).statusCode).toBe(200);
    expect((await lineState()).map((line) => line.refunded)).toEqual([1_000, 4_000]);
    expect(await paymentRefunded()).toBe(5_000);
    expect((await checkLedger(t.db)).isConsistent).toBe(true);
  });

  it('answers a replay of the order that took the last item with that order, not with "sold out"', async () => {
    const commodityId = await releasedCommodity(t, { stock: 1, unitPrice: 1_000 });
    const { id: addressId } = await data<{ id: number }>(await asParent(t, token, { method: 'POST', url: APP_MALL_PATHS.saveAddress, payload: ADDRESS }));
    const order = { lines: [{ commodityId, quantity: 1 }], addressId };
    const headers = { 'idempotency-key': `last-${unique()}` };
    const placed = await data<{ orderId: number }>(await asParent(t, token, { method: 'POST', url: APP_MALL_PATHS.placeOrder, headers, payload: order }));
    expect(await data(await asParent(t, token, { method: 'POST', url: APP_MALL_PATHS.placeOrder, headers, payload: order }))).toEqual(placed);
    // A new attempt is refused before it claims a key: nothing is kept for it.
    const late = await asParent(t, strangerToken, { method: 'POST', url: APP_MALL_PATHS.placeOrder, headers: { 'idempotency-key': `late-${unique()}` }, payload: { ...order, addressId: (await data<{ id: number }>(await asParent(t, strangerToken, { method: 'POST', url: APP_MALL_PATHS.saveAddress, payload: ADDRESS }))).id } });
    expect(late.statusCode).toBe(400);
    expect(late.json().data.errors[0].path).toBe('lines');
    const keys = (await t.db.execute(sql`select count(*)::int as n from app_idempotency_keys where parent_id = ${stranger.id} and key like 'late-%'`)) as unknown as Rows<{ n: number }>;
    expect(keys.rows[0]!.n).toBe(0);
  });

  it("answers 404 to a parent reading or changing another parent's order", async () => {
    const commodityId = await releasedCommodity(t, { stock: 5, unitPrice: 1_000 });
    const { id: addressId } = await data<{ id: number }>(await asParent(t, token, { method: 'POST', url: APP_MALL_PATHS.saveAddress, payload: ADDRESS }));
    const { orderId } = await data<{ orderId: number }>(await asParent(t, token, { method: 'POST', url: APP_MALL_PATHS.placeOrder, payload: { lines: [{ commodityId, quantity: 1 }], addressId } }));
    expect((await asParent(t, strangerToken, { method: 'GET', url: `${APP_MALL_PATHS.order}?id=${orderId}` })).statusCode).toBe(404);
    const theirs = await data<{ rows: { id: number }[] }>(await asParent(t, strangerToken, { method: 'GET', url: `${APP_MALL_PATHS.orders}?page=1&size=100` }));
    expect(theirs.rows.map((row) => row.id)).not.toContain(orderId);
    for (const url of [APP_MALL_PATHS.payOrder, APP_MALL_PATHS.cancelOrder, APP_MALL_PATHS.confirmReceipt]) {
      expect((await asParent(t, strangerToken, { method: 'POST', url, payload: { orderId } })).statusCode, url).toBe(404);
    }
    expect((await asParent(t, strangerToken, { method: 'POST', url: APP_MALL_PATHS.applyRefund, payload: { orderId, lineNo: 1, reason: '不是我的' } })).statusCode).toBe(404);
    expect((await asParent(t, strangerToken, { method: 'POST', url: APP_MALL_PATHS.comment, payload: { orderId, commodityId, score: 1, content: '不是我的' } })).statusCode).toBe(404);
    // Nor may it order to another parent's address.
    expect((await asParent(t, strangerToken, { method: 'POST', url: APP_MALL_PATHS.placeOrder, payload: { lines: [{ commodityId, quantity: 1 }], addressId } })).statusCode).toBe(404);
    // Unpaid: no refund to apply for.
    expect((await asParent(t, token, { method: 'POST', url: APP_MALL_PATHS.applyRefund, payload: { orderId, lineNo: 1, reason: '未付款' } })).statusCode).toBe(409);
  });

  it('cancels an unpaid order: stock, coupon and points go back', async () => {
    const commodityId = await releasedCommodity(t, { stock: 4, unitPrice: 5_000 });
    const couponId = await everyoneCoupon(t);
    await t.db.transaction((tx) => postPoints(tx, stranger.id, { kind: 1, amount: 300, source: `test:${unique()}`, reason: 'test', now: t.clock.now() }));
    const before = (await data<{ balance: number }>(await asParent(t, strangerToken, { method: 'GET', url: APP_MALL_PATHS.points }))).balance;
    const { id: addressId } = await data<{ id: number }>(await asParent(t, strangerToken, { method: 'POST', url: APP_MALL_PATHS.saveAddress, payload: ADDRESS }));
    const { grantId } = await data<{ grantId: number }>(await asParent(t, strangerToken, { method: 'POST', url: APP_MALL_PATHS.claimCoupon, payload: { couponId } }));
    const { orderId } = await data<{ orderId: number }>(
      await asParent(t, strangerToken, { method: 'POST', url: APP_MALL_PATHS.placeOrder, payload: { lines: [{ commodityId, quantity: 3 }], addressId, couponGrantId: grantId, points: 200 } }),
    );
    await data(await asParent(t, strangerToken, { method: 'POST', url: APP_MALL_PATHS.cancelOrder, payload: { orderId } }));
    const [order] = await t.db.select({ state: marketOrders.state }).from(marketOrders).where(eq(marketOrders.id, orderId));
    expect(order!.state).toBe(MALL_ORDER_CANCELLED);
    const [stock] = await t.db.select({ stock: marketCommodities.stockCount }).from(marketCommodities).where(eq(marketCommodities.id, commodityId));
    expect(stock!.stock).toBe(4);
    expect((await data<{ balance: number }>(await asParent(t, strangerToken, { method: 'GET', url: APP_MALL_PATHS.points }))).balance).toBe(before);
    const grants = await data<{ grantId: number; isUsable: boolean }[]>(await asParent(t, strangerToken, { method: 'GET', url: APP_MALL_PATHS.coupons }));
    expect(grants.find((grant) => grant.grantId === grantId)?.isUsable).toBe(true);
    expect((await asParent(t, strangerToken, { method: 'POST', url: APP_MALL_PATHS.payOrder, payload: { orderId } })).statusCode).toBe(409);
  });

  it('spends points in the points shop, never beyond the balance', async () => {
    const goods = await pointsCommodity(t, 3, 100);
    const { id: addressId } = await data<{ id: number }>(await asParent(t, strangerToken, { method: 'POST', url: APP_MALL_PATHS.saveAddress, payload: ADDRESS }));
    const shop = await data<{ id: number }[]>(await asParent(t, strangerToken, { method: 'GET', url: APP_MALL_PATHS.pointsShop }));
    expect(shop.map((row) => row.id)).toContain(goods);
    const balance = (await data<{ balance: number }>(await asParent(t, strangerToken, { method: 'GET', url: APP_MALL_PATHS.points }))).balance;
    const refused = await asParent(t, strangerToken, { method: 'POST', url: APP_MALL_PATHS.placePointsOrder, payload: { commodityId: goods, quantity: Math.floor(balance / 100) + 1, addressId } });
    expect(refused.statusCode).toBe(400);
    await t.db.transaction((tx) => postPoints(tx, stranger.id, { kind: 1, amount: 100, source: `test:${unique()}`, reason: 'test', now: t.clock.now() }));
    const placed = await data<{ orderId: number; points: number }>(await asParent(t, strangerToken, { method: 'POST', url: APP_MALL_PATHS.placePointsOrder, payload: { commodityId: goods, quantity: 1, addressId } }));
    expect(placed.points).toBe(100);
    const orders = await data<{ id: number }[]>(await asParent(t, strangerToken, { method: 'GET', url: APP_MALL_PATHS.pointsOrders }));
    expect(orders[0]!.id).toBe(placed.orderId);
    expect((await data<{ balance: number }>(await asParent(t, strangerToken, { method: 'GET', url: APP_MALL_PATHS.points }))).balance).toBe(balance);
  });

  it('gives the points set on scallionRiceOrder for a questionnaire answered through the channel, once', async () => {
    const saved = await t.injectAs(admin, { method: 'POST', url: API_PATHS.savePointsEarning, payload: { orderCompleted: 20, questionnaireAnswered: 7 } });
    expect(saved.statusCode, saved.body).toBe(200);
    const day = (days: number) => formatBusinessDate(new Date(t.clock.now().getTime() + days * 86_400_000));
    const added = await t.injectAs(admin, {
      method: 'POST',
      url: '/api/Questionnaire/Add?view=questionnaire',
      payload: { title: `家长问卷${unique()}`, startDate: day(-1), endDate: day(10), audience: 1, questions: [{ title: '满意吗？', type: 1, isRequired: true, options: '满意\n一般' }] },
    });
    expect(added.statusCode, added.body).toBe(200);
    const questionnaireId = added.json().data.id as number;
    const before = (await data<{ balance: number }>(await asParent(t, token, { method: 'GET', url: APP_MALL_PATHS.points }))).balance;
    const body = { questionnaireId, answers: [{ questionNo: 1, optionNos: [1] }] };
    await data(await asParent(t, token, { method: 'POST', url: APP_PATHS.answerQuestionnaire, payload: body }));
    expect((await asParent(t, token, { method: 'POST', url: APP_PATHS.answerQuestionnaire, payload: body })).statusCode).toBe(409);
    const after = await data<{ balance: number; rows: { amount: number }[] }>(await asParent(t, token, { method: 'GET', url: APP_MALL_PATHS.points }));
    expect(after.balance).toBe(before + 7);
    expect(after.rows[0]!.amount).toBe(7);
  });
});

describe('paying a mall order with WeChat Pay', () => {
  let t: TestApp;
  let token: string;
  const received: ReceivedOrders = [];

  beforeAll(async () => {
    let now = () => new Date();
    t = await createTestApp({ env: fakeWechatEnv, paymentProviders: { fetch: fakeWechatFetch(received, () => now()) } });
    now = () => t.clock.now();
    token = await signedIn(t, (await demoParents(t))[2]!);
  });
  afterAll(() => t.close());

  it("answers the app SDK's signed prepay parameters; the notification pays the order with its merchants' shares", async () => {
    const commodityId = await releasedCommodity(t, { stock: 2, unitPrice: 4_000 });
    const { id: addressId } = await data<{ id: number }>(await asParent(t, token, { method: 'POST', url: APP_MALL_PATHS.saveAddress, payload: ADDRESS }));
    const { orderId } = await data<{ orderId: number }>(await asParent(t, token, { method: 'POST', url: APP_MALL_PATHS.placeOrder, payload: { lines: [{ commodityId, quantity: 1 }], addressId } }));
    const pending = await data<{ outcome: string; state: number; payParams: Record<string, string> }>(await asParent(t, token, { method: 'POST', url: APP_MALL_PATHS.payOrder, payload: { orderId, scene: 'app' } }));
    expect(pending).toMatchObject({ outcome: 'pending', state: MALL_ORDER_UNPAID });
    const params = pending.payParams;
    expect(params).toMatchObject({ appid: FAKE_WECHAT.appId, partnerid: FAKE_WECHAT.mchId, package: 'Sign=WXPay' });
    expect(createVerify('RSA-SHA256').update(`${params.appid}\n${params.timestamp}\n${params.noncestr}\n${params.prepayid}\n`).verify(FAKE_WECHAT.merchantPublicKey, params.sign!, 'base64')).toBe(true);

    const sent = received.at(-1)!;
    const notification = paidNotification(sent, t.clock.now());
    const notified = await t.app.inject({ method: 'POST', url: '/api/Pay/Notify/WechatPay', headers: notification.headers, payload: notification.body });
    expect(notified.statusCode, notified.body).toBe(200);
    const [order] = await t.db.select().from(marketOrders).where(eq(marketOrders.id, orderId));
    expect(order!.state).toBe(MALL_ORDER_PAID);
    const legs = (await t.db.execute(sql`select account_type as type, sum(amount)::bigint as amount from agent_fund_entries where payment_id = ${order!.paymentId} group by account_type`)) as unknown as Rows<{ type: number; amount: number }>;
    expect(Number(legs.rows.find((leg) => Number(leg.type) === FUND_ACCOUNT_MERCHANT)!.amount)).toBe(3_600);
    expect(legs.rows.reduce((sum, leg) => sum + Number(leg.amount), 0)).toBe(4_000);
    // A repeated notification changes nothing.
    const again = await t.app.inject({ method: 'POST', url: '/api/Pay/Notify/WechatPay', headers: notification.headers, payload: notification.body });
    expect(again.statusCode).toBe(200);
    const payments = (await t.db.execute(sql`select count(*)::int as n from payment_records where out_trade_no = ${order!.orderNo}`)) as unknown as Rows<{ n: number }>;
    expect(payments.rows[0]!.n).toBe(1);
  });
});
