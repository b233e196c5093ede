import { COUPON_GRANT_UNUSED, FUND_ACCOUNT_MERCHANT, MALL_ORDER_CANCELLED, MALL_ORDER_COMPLETED, MALL_ORDER_PAID, MALL_ORDER_RECEIVED, MALL_ORDER_SHIPPED, MALL_ORDER_STATE_OPTIONS, MarketOrder, actionOffered } from '@campus/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { marketCommodities, marketOrders, pointsCommodities } from '../../src/db/schema/mall.js';
import { checkLedger } from '../../src/finance/ledger-check.js';
import { commentOnOrder, commodityOf, deleteAddress, myAddresses, releasedCommodities, saveAddress } from '../../src/mall/catalog.js';
import { claimCoupon, myCoupons, sendCoupon } from '../../src/mall/coupons.js';
import { cancelOrder, closeUnpaidOrders, completeReceivedOrders, confirmReceipt, myOrders, paidAmounts, payOrder, placeOrder, takeStock } from '../../src/mall/orders.js';
import { pointsBalance, postPoints } from '../../src/mall/points.js';
import { placePointsOrder } from '../../src/mall/points-shop.js';
import { AppError } from '../../src/platform/errors.js';
import { hashPassword, md5Hex } from '../../src/platform/passwords.js';
import { users } from '../../src/db/schema/index.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { grantEverything, insertCoupon, schoolIdsOf } from '../resources/fixtures.js';
import { mallCatalogue, parentWithAddress, parentsWithAddresses, pointsCommodity, releasedCommodity } from './mall-fixtures.js';

let t: TestApp;
let schoolId: number;
let otherSchoolId: number;
let admin: string;
let agent1: string;

beforeAll(async () => {
  t = await createTestApp();
  [admin, agent1] = await Promise.all([t.loginAs('admin'), t.loginAs('agent1')]);
  schoolId = (await schoolIdsOf(t, 'agent1'))[0]!;
  otherSchoolId = (await schoolIdsOf(t, 'agent2'))[0]!;
  await grantEverything(t, 'agent1');
});
afterAll(() => t.close());
// Whatever a test did, the ledger holds: balances are their entries, payments their legs (merchants' included).
afterEach(async () => {
  expect((await checkLedger(t.db)).mismatches).toEqual({ accounts: [], payments: [] });
});

const now = () => new Date();
const statusOf = async (promise: Promise<unknown>): Promise<number> => promise.then(() => 200, (error: unknown) => (error instanceof AppError ? error.httpStatus : 500));
const stockOf = async (commodityId: number) => (await t.db.select({ stock: marketCommodities.stockCount }).from(marketCommodities).where(eq(marketCommodities.id, commodityId)))[0]!.stock;
const orderOf = async (orderId: number) => (await t.db.select().from(marketOrders).where(eq(marketOrders.id, orderId)))[0]!;

describe('placing orders', () => {
  it('sells exactly the stock to 100 concurrent orders: 10 placed, stock 0, the others refused whole', async () => {
    const commodityId = await releasedCommodity(t, { stock: 10 });
    const buyers = await parentsWithAddresses(t, schoolId, 100);
    const outcomes = await Promise.all(buyers.map(({ parentId, addressId }) => statusOf(placeOrder(t.db, parentId, { lines: [{ commodityId, quantity: 1 }], addressId }, now()))));
    expect(outcomes.filter((status) => status === 200)).toHaveLength(10);
    expect(outcomes.filter((status) => status === 400)).toHaveLength(90);
    expect(await stockOf(commodityId)).toBe(0);
    const placed = (await t.db.execute(sql`select count(*)::int as n from market_order_lines where commodity_id = ${commodityId}`)) as unknown as { rows: { n: number }[] };
    expect(placed.rows[0]!.n).toBe(10);
  });

  it('refuses (409) to take stock at a price other than the one the order was priced at', async () => {
    const commodityId = await releasedCommodity(t, { stock: 3, unitPrice: 1_000 });
    const taking = t.db.transaction((tx) => takeStock(tx, null, [{ commodityId, quantity: 1 }], now(), new Map([[commodityId, 900]])));
    expect(await statusOf(taking)).toBe(409);
    expect(await stockOf(commodityId)).toBe(3);
  });

  it('places nothing when one line cannot be had: the other lines keep their stock', async () => {
    const plenty = await releasedCommodity(t, { stock: 10 });
    const scarce = await releasedCommodity(t, { stock: 1 });
    const { parentId, addressId } = await parentWithAddress(t, schoolId);
    expect(await statusOf(placeOrder(t.db, parentId, { lines: [{ commodityId: plenty, quantity: 3 }, { commodityId: scarce, quantity: 2 }], addressId }, now()))).toBe(400);
    expect(await stockOf(plenty)).toBe(10);
    expect(await stockOf(scarce)).toBe(1);
    expect(await myOrders(t.db, parentId, { pageIndex: 1, pageSize: 10 })).toEqual([]);
  });

  it('refuses a commodity not released to the parent’s school and another parent’s address', async () => {
    const { categoryId, merchantId } = await mallCatalogue(t);
    const [hidden] = await t.db.insert(marketCommodities).values({ title: '未发布', categoryId, merchantId, unitPrice: 100, stockCount: 5, isEnabled: true }).returning({ id: marketCommodities.id });
    const { parentId, addressId } = await parentWithAddress(t, schoolId);
    const stranger = await parentWithAddress(t, schoolId);
    expect(await statusOf(placeOrder(t.db, parentId, { lines: [{ commodityId: hidden!.id, quantity: 1 }], addressId }, now()))).toBe(400);
    expect(await statusOf(commodityOf(t.db, parentId, hidden!.id, now()))).toBe(404);
    const released = await releasedCommodity(t, { stock: 5 });
    expect(await statusOf(placeOrder(t.db, parentId, { lines: [{ commodityId: released, quantity: 1 }], addressId: stranger.addressId }, now()))).toBe(404);
    expect((await releasedCommodities(t.db, parentId, { pageIndex: 1, pageSize: 100 }, now())).items.map((item) => item.id)).toContain(released);
  });

  it('divides the reductions over the lines so they sum to what the order pays', () => {
    expect(paidAmounts([1000, 2000, 3000], 600)).toEqual([900, 1800, 2700]);
    expect(paidAmounts([333, 333, 334], 100)).toEqual([300, 300, 300]);
  });
});

describe('paying, shipping, receiving', () => {
  it('pays through the demo provider: one payment, merchants’ shares posted, the order paid; completes 7 days after receipt with points earned', async () => {
    const commodityId = await releasedCommodity(t, { stock: 5, unitPrice: 10_000 });
    const { parentId, addressId } = await parentWithAddress(t, schoolId);
    const { orderId } = await placeOrder(t.db, parentId, { lines: [{ commodityId, quantity: 2 }], addressId }, now());
    expect(await payOrder(t.db, t.app.payments, parentId, orderId, now)).toMatchObject({ state: MALL_ORDER_PAID, outcome: "paid" });
    const order = await orderOf(orderId);
    const legs = (await t.db.execute(sql`select account_type as type, sum(amount)::bigint as amount from agent_fund_entries where payment_id = ${order.paymentId} group by account_type`)) as unknown as {
      rows: { type: number; amount: number }[];
    };
    // Commission 10 %: the merchant gets 18,000 of 20,000; the school's split rule divides the 2,000.
    expect(Number(legs.rows.find((leg) => Number(leg.type) === FUND_ACCOUNT_MERCHANT)!.amount)).toBe(18_000);
    expect(legs.rows.reduce((sum, leg) => sum + Number(leg.amount), 0)).toBe(20_000);
    expect(await statusOf(payOrder(t.db, t.app.payments, parentId, orderId, now))).toBe(409);

    const ship = await t.injectAs(admin, { method: 'POST', url: '/api/MarketOrder/Ship', payload: { id: orderId, carrier: '顺丰', trackingNo: 'SF1000000001' } });
    expect(ship.statusCode, ship.body).toBe(200);
    expect((await orderOf(orderId)).state).toBe(MALL_ORDER_SHIPPED);
    const receivedAt = new Date(Date.now() - 8 * 86_400_000);
    await confirmReceipt(t.db, parentId, orderId, receivedAt);
    expect((await orderOf(orderId)).state).toBe(MALL_ORDER_RECEIVED);
    await completeReceivedOrders(t.db, now());
    expect((await orderOf(orderId)).state).toBe(MALL_ORDER_COMPLETED);
    expect(await pointsBalance(t.db, parentId)).toBe(10);
  });

  it('keeps a parent to its own orders: another parent’s is 404 to pay, cancel, receive or comment', async () => {
    const commodityId = await releasedCommodity(t, { stock: 5 });
    const owner = await parentWithAddress(t, schoolId);
    const other = await parentWithAddress(t, schoolId);
    const { orderId } = await placeOrder(t.db, owner.parentId, { lines: [{ commodityId, quantity: 1 }], addressId: owner.addressId }, now());
    expect(await statusOf(payOrder(t.db, t.app.payments, other.parentId, orderId, now))).toBe(404);
    expect(await statusOf(cancelOrder(t.db, other.parentId, orderId, now()))).toBe(404);
    expect(await statusOf(confirmReceipt(t.db, other.parentId, orderId, now()))).toBe(404);
    expect(await statusOf(commentOnOrder(t.db, other.parentId, { orderId, commodityId, score: 5, content: '好' }, now()))).toBe(404);
    expect(await myOrders(t.db, other.parentId, { pageIndex: 1, pageSize: 10 })).toEqual([]);
    expect((await myOrders(t.db, owner.parentId, { pageIndex: 1, pageSize: 10 })).map((order) => order.id)).toEqual([orderId]);
  });

  it('shows a parent’s comment on evaluateManage once the order is received, once per commodity', async () => {
    const commodityId = await releasedCommodity(t, { stock: 5 });
    const { parentId, addressId } = await parentWithAddress(t, schoolId);
    const { orderId } = await placeOrder(t.db, parentId, { lines: [{ commodityId, quantity: 1 }], addressId }, now());
    expect(await statusOf(commentOnOrder(t.db, parentId, { orderId, commodityId, score: 5, content: '很好' }, now()))).toBe(409);
    await payOrder(t.db, t.app.payments, parentId, orderId, now);
    await t.injectAs(admin, { method: 'POST', url: '/api/MarketOrder/Ship', payload: { id: orderId, carrier: '顺丰', trackingNo: 'SF1000000002' } });
    await confirmReceipt(t.db, parentId, orderId, now());
    const { id } = await commentOnOrder(t.db, parentId, { orderId, commodityId, score: 4, content: '孩子喜欢', images: ['/uploads/a.png'] }, now());
    expect(await statusOf(commentOnOrder(t.db, parentId, { orderId, commodityId, score: 4, content: '再评' }, now()))).toBe(409);
    const page = await t.injectAs(admin, { method: 'POST', url: '/api/CommodityComment/Search?view=evaluateManage', payload: { pageIndex: 1, pageSize: 10, commodityId } });
    expect(page.json().data.items.map((row: { id: number }) => row.id)).toEqual([id]);
  });

  it('shows an agent only its schools’ orders', async () => {
    const commodityId = await releasedCommodity(t, { stock: 5 });
    const mine = await parentWithAddress(t, schoolId);
    const theirs = await parentWithAddress(t, otherSchoolId);
    const own = await placeOrder(t.db, mine.parentId, { lines: [{ commodityId, quantity: 1 }], addressId: mine.addressId }, now());
    const foreign = await placeOrder(t.db, theirs.parentId, { lines: [{ commodityId, quantity: 1 }], addressId: theirs.addressId }, now());
    const page = await t.injectAs(agent1, { method: 'POST', url: '/api/MarketOrder/Search?view=mallOrderManage', payload: { pageIndex: 1, pageSize: 100, parentId: mine.parentId } });
    expect(page.json().data.items.map((row: { id: number }) => row.id)).toEqual([own.orderId]);
    expect((await t.injectAs(agent1, { method: 'GET', url: `/api/MarketOrder/Get?id=${foreign.orderId}&view=mallOrderManage` })).statusCode).toBe(404);
    expect((await t.injectAs(agent1, { method: 'GET', url: `/api/MarketOrder/Get?id=${own.orderId}&view=mallOrderManage` })).json().data.items).toHaveLength(1);
  });
});

describe('refunding a line', () => {
  it('refunds part of one line through the refund flow, posting its reversal, and never beyond what the line paid', async () => {
    const cheap = await releasedCommodity(t, { stock: 5, unitPrice: 1_000 });
    const dear = await releasedCommodity(t, { stock: 5, unitPrice: 4_000 });
    const { parentId, addressId } = await parentWithAddress(t, schoolId);
    const { orderId } = await placeOrder(t.db, parentId, { lines: [{ commodityId: cheap, quantity: 1 }, { commodityId: dear, quantity: 1 }], addressId }, now());
    await payOrder(t.db, t.app.payments, parentId, orderId, now);
    const lineOfCheap = (await orderOf(orderId)) && ((await t.db.execute(sql`select line_no as "lineNo" from market_order_lines where market_order_id = ${orderId} and commodity_id = ${cheap}`)) as unknown as { rows: { lineNo: number }[] }).rows[0]!.lineNo;
    await t.db.update(users).set({ refundPasswordHash: await hashPassword(md5Hex('Refund@29')) }).where(eq(users.loginName, 'admin'));
    const refund = (lineNo: number, refundAmount: number, password = 'Refund@29') =>
      t.injectAs(admin, { method: 'POST', url: '/api/MarketOrder/RefundLine', payload: { id: orderId, lineNo, refundAmount, reason: '破损', reauthPassword: md5Hex(password) } });
    // Like every refund, only with the refund password; a wrong one refunds nothing.
    const wrong = await refund(lineOfCheap, 600, 'not-it');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().data.errors[0].path).toBe('reauthPassword');
    const without = await t.injectAs(admin, { method: 'POST', url: '/api/MarketOrder/RefundLine', payload: { id: orderId, lineNo: lineOfCheap, refundAmount: 600, reason: '破损' } });
    expect(without.statusCode).toBe(400);
    const first = await refund(lineOfCheap, 600);
    expect(first.statusCode, first.body).toBe(200);
    const { paymentId } = await orderOf(orderId);
    const reversed = (await t.db.execute(sql`select coalesce(-sum(amount), 0)::int as total from agent_fund_entries where payment_id = ${paymentId} and kind = 2`)) as unknown as { rows: { total: number }[] };
    expect(reversed.rows[0]!.total).toBe(600);
    const tooMuch = await refund(lineOfCheap, 500);
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().data.errors[0].path).toBe('refundAmount');
    expect((await refund(lineOfCheap, 400)).statusCode).toBe(200);
    expect((await refund(9, 1)).statusCode).toBe(400);
  });

  it('is offered on paid, shipped, received and completed orders only; an unpaid one answers 409', async () => {
    const refundLine = MarketOrder.actions.find((action) => action.verb === 'RefundLine')!;
    const offeredOn = MALL_ORDER_STATE_OPTIONS.filter((option) => actionOffered(refundLine, { state: option.value })).map((option) => option.value);
    expect(offeredOn).toEqual([MALL_ORDER_PAID, MALL_ORDER_SHIPPED, MALL_ORDER_RECEIVED, MALL_ORDER_COMPLETED]);
    const commodityId = await releasedCommodity(t, { stock: 5, unitPrice: 1_000 });
    const { parentId, addressId } = await parentWithAddress(t, schoolId);
    const { orderId } = await placeOrder(t.db, parentId, { lines: [{ commodityId, quantity: 1 }], addressId }, now());
    await t.db.update(users).set({ refundPasswordHash: await hashPassword(md5Hex('Refund@29')) }).where(eq(users.loginName, 'admin'));
    const unpaid = await t.injectAs(admin, { method: 'POST', url: '/api/MarketOrder/RefundLine', payload: { id: orderId, lineNo: 1, refundAmount: 100, reason: '未付', reauthPassword: md5Hex('Refund@29') } });
    expect(unpaid.statusCode).toBe(409);
  });
});

describe('unpaid orders', () => {
  it('closes an order unpaid for 30 minutes, giving back its stock, coupon and points', async () => {
    const commodityId = await releasedCommodity(t, { stock: 5, unitPrice: 5_000 });
    const { parentId, addressId } = await parentWithAddress(t, schoolId);
    await postPoints(t.db, parentId, { kind: 2, amount: 300, source: 'test:close', reason: 'test', now: now() });
    const couponId = await insertCoupon(t, { amountOff: 1_000, threshold: 5_000 });
    const { grantId } = await claimCoupon(t.db, parentId, couponId, now());
    const placedAt = new Date(Date.now() - 31 * 60_000);
    const { orderId, payAmount } = await placeOrder(t.db, parentId, { lines: [{ commodityId, quantity: 2 }], addressId, couponGrantId: grantId, points: 200 }, placedAt);
    expect(payAmount).toBe(10_000 - 1_000 - 200);
    expect(await stockOf(commodityId)).toBe(3);
    expect(await pointsBalance(t.db, parentId)).toBe(100);
    expect((await myCoupons(t.db, parentId, now()))[0]).toMatchObject({ grantId, isUsable: false, orderId });

    expect(await closeUnpaidOrders(t.db, now())).toBeGreaterThanOrEqual(1);
    expect((await orderOf(orderId)).state).toBe(MALL_ORDER_CANCELLED);
    expect(await stockOf(commodityId)).toBe(5);
    expect(await pointsBalance(t.db, parentId)).toBe(300);
    expect((await myCoupons(t.db, parentId, now()))[0]).toMatchObject({ grantId, state: COUPON_GRANT_UNUSED, isUsable: true, orderId: null });
    // Closed once: a second run gives nothing back twice.
    await closeUnpaidOrders(t.db, now());
    expect(await pointsBalance(t.db, parentId)).toBe(300);
  });

  it('refuses a coupon used by another order, one below its threshold and points beyond the balance', async () => {
    const commodityId = await releasedCommodity(t, { stock: 10, unitPrice: 3_000 });
    const { parentId, addressId } = await parentWithAddress(t, schoolId);
    const couponId = await insertCoupon(t, { amountOff: 500, threshold: 5_000 });
    const { grantId } = await claimCoupon(t.db, parentId, couponId, now());
    expect(await statusOf(placeOrder(t.db, parentId, { lines: [{ commodityId, quantity: 1 }], addressId, couponGrantId: grantId }, now()))).toBe(400);
    await placeOrder(t.db, parentId, { lines: [{ commodityId, quantity: 2 }], addressId, couponGrantId: grantId }, now());
    expect(await statusOf(placeOrder(t.db, parentId, { lines: [{ commodityId, quantity: 2 }], addressId, couponGrantId: grantId }, now()))).toBe(400);
    expect(await statusOf(placeOrder(t.db, parentId, { lines: [{ commodityId, quantity: 1 }], addressId, points: 1 }, now()))).toBe(400);
    expect(await stockOf(commodityId)).toBe(8);
  });
});

describe('coupons', () => {
  it('grants exactly the total to 100 concurrent claims', async () => {
    const couponId = await insertCoupon(t, { total: 10 });
    const claimants = await parentsWithAddresses(t, schoolId, 100);
    const outcomes = await Promise.all(claimants.map(({ parentId }) => statusOf(t.db.transaction((tx) => claimCoupon(tx, parentId, couponId, now())))));
    expect(outcomes.filter((status) => status === 200)).toHaveLength(10);
    const grants = (await t.db.execute(sql`select count(*)::int as n, (select issued from coupons where id = ${couponId}) as issued from coupon_grants where coupon_id = ${couponId}`)) as unknown as {
      rows: { n: number; issued: number }[];
    };
    expect(grants.rows[0]).toEqual({ n: 10, issued: 10 });
  });

  it('refuses an Update lowering the total below what the coupon issued, on the total (declared `atLeast`)', async () => {
    const couponId = await insertCoupon(t, { total: 100, issued: 40 });
    const update = async (total: number) => {
      const got = await t.injectAs(admin, { method: 'GET', url: `/api/Coupon/Get?id=${couponId}` });
      return t.injectAs(admin, { method: 'POST', url: '/api/Coupon/Update', payload: { id: couponId, version: got.json().data.version, total } });
    };
    const refused = await update(39);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().data.errors).toEqual([expect.objectContaining({ path: 'total', key: 'mall.totalBelowIssued', params: { limit: 40 }, message: 'the total cannot be below the 40 already issued' })]);
    const kept = await update(40);
    expect(kept.statusCode, kept.body).toBe(200);
  });

  it('never lets one parent hold more than its limit, even claiming at once', async () => {
    const couponId = await insertCoupon(t, { perParentLimit: 2 });
    const { parentId } = await parentWithAddress(t, schoolId);
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => statusOf(t.db.transaction((tx) => claimCoupon(tx, parentId, couponId, now())))));
    expect(outcomes.filter((status) => status === 200)).toHaveLength(2);
  });

  it('sends one grant per target parent and send, and a coupon of chosen schools only to their parents', async () => {
    const couponId = await insertCoupon(t, { targetKind: 2, total: 100_000, perParentLimit: 3 });
    await t.db.execute(sql`insert into coupon_schools (coupon_id, school_id) values (${couponId}, ${otherSchoolId})`);
    const targets = (await t.db.execute(sql`select count(*)::int as n from parents where school_id = ${otherSchoolId} and enabled`)) as unknown as { rows: { n: number }[] };
    const first = await t.db.transaction((tx) => sendCoupon(tx, couponId, 'send:test', now()));
    expect(first.granted).toBe(targets.rows[0]!.n);
    expect((await t.db.transaction((tx) => sendCoupon(tx, couponId, 'send:test', now()))).granted).toBe(0);
    const outsider = await parentWithAddress(t, schoolId);
    expect(await statusOf(t.db.transaction((tx) => claimCoupon(tx, outsider.parentId, couponId, now())))).toBe(409);
    const sent = await t.injectAs(admin, { method: 'POST', url: '/api/Coupon/Send', payload: { id: couponId } });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().data.granted).toBe(targets.rows[0]!.n);
  });
});

describe('points', () => {
  it('never goes below zero under concurrent spends in the points shop', async () => {
    const { parentId, addressId } = await parentWithAddress(t, schoolId);
    await postPoints(t.db, parentId, { kind: 2, amount: 100, source: 'test:spend', reason: 'test', now: now() });
    const goods = await pointsCommodity(t, 100, 30);
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => statusOf(placePointsOrder(t.db, parentId, { commodityId: goods, quantity: 1, addressId }, now()))));
    expect(outcomes.filter((status) => status === 200)).toHaveLength(3);
    expect(await pointsBalance(t.db, parentId)).toBe(10);
    expect((await t.db.select({ stock: pointsCommodities.stockCount }).from(pointsCommodities).where(eq(pointsCommodities.id, goods)))[0]!.stock).toBe(97);
  });
});

describe('addresses', () => {
  it('adds, corrects and deletes a parent’s own addresses; another parent’s is 404', async () => {
    const { parentId } = await parentWithAddress(t, schoolId);
    const other = await parentWithAddress(t, schoolId);
    const input = { consigneeName: '周七', consigneePhone: '13600001111', province: '浙江省', city: '杭州市', area: '上城区', detail: '解放路 8 号', isDefault: true };
    const { id } = await saveAddress(t.db, parentId, null, input, now());
    const mine = await myAddresses(t.db, parentId);
    expect(mine[0]).toMatchObject({ id, isDefault: true });
    expect(mine.filter((row) => row.isDefault)).toHaveLength(1);
    expect(await statusOf(saveAddress(t.db, parentId, null, { ...input, city: '不存在市' }, now()))).toBe(400);
    expect(await statusOf(saveAddress(t.db, other.parentId, id, input, now()))).toBe(404);
    expect(await statusOf(deleteAddress(t.db, other.parentId, id))).toBe(404);
    await deleteAddress(t.db, parentId, id);
    expect((await myAddresses(t.db, parentId)).map((row) => row.id)).not.toContain(id);
  });
});
