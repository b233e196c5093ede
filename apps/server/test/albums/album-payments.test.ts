import { ALBUM_APP_PATHS, ALBUM_ORDER_PAID, ALBUM_ORDER_UNPAID, uploadKeyOf } from '@campus/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { albumBooks, albumOrders } from '../../src/db/schema/index.js';
import { asParent } from '../app-channel/support.js';
import { FAKE_WECHAT, fakeWechatEnv, fakeWechatFetch, paidNotification, type ReceivedOrders } from '../app-channel/fake-wechatpay.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { grantEverything, schoolIdsOf } from '../resources/fixtures.js';
import { call, doneAlbumBook, parentWithAlbumBook, printedOrder } from './album-fixtures.js';

type Rows<T> = { rows: T[] };

let t: TestApp;
let schoolId: number;
const received: ReceivedOrders = [];

beforeAll(async () => {
  let now = () => new Date();
  t = await createTestApp({ env: fakeWechatEnv, paymentProviders: { fetch: fakeWechatFetch(received, () => now()) } });
  now = () => t.clock.now();
  await grantEverything(t, 'agent1');
  schoolId = (await schoolIdsOf(t, 'agent1'))[0]!;
});
afterAll(() => t.close());

const paymentsOf = async (orderNo: string) => ((await t.db.execute(sql`select count(*)::int as n, coalesce(sum(amount), 0)::int as amount from payment_records where out_trade_no = ${orderNo}`)) as unknown as Rows<{ n: number; amount: number }>).rows[0]!;

describe('paying an album order with WeChat Pay', () => {
  it('answers pending with the app SDK parameters; the notification pays the order once and records the payment', async () => {
    const { token, bookId } = await parentWithAlbumBook(t, schoolId);
    const placed = (await asParent(t, token, { method: 'POST', url: ALBUM_APP_PATHS.order, payload: printedOrder(bookId, 2) })).json();
    expect(placed.code, JSON.stringify(placed)).toBe(200);
    expect(placed.data).toMatchObject({ outcome: 'pending', state: ALBUM_ORDER_UNPAID });
    expect(placed.data.payParams).toMatchObject({ appid: FAKE_WECHAT.appId, partnerid: FAKE_WECHAT.mchId, package: 'Sign=WXPay' });
    const sent = received.at(-1)!;
    expect(JSON.parse(String(sent.attach))).toEqual({ albumOrderId: placed.data.id });

    const notification = paidNotification(sent, t.clock.now());
    const notified = await t.app.inject({ method: 'POST', url: '/api/Pay/Notify/WechatPay', headers: notification.headers, payload: notification.body });
    expect(notified.statusCode, notified.body).toBe(200);
    const [order] = await t.db.select().from(albumOrders).where(eq(albumOrders.id, placed.data.id));
    expect(order).toMatchObject({ state: ALBUM_ORDER_PAID });
    expect(order!.tradeNo).toMatch(/^4200000/);
    expect(await paymentsOf(order!.orderNo!)).toEqual({ n: 1, amount: placed.data.amount });

    // WeChat repeats its notifications: nothing changes a second time.
    const again = await t.app.inject({ method: 'POST', url: '/api/Pay/Notify/WechatPay', headers: notification.headers, payload: notification.body });
    expect(again.statusCode).toBe(200);
    expect(await paymentsOf(order!.orderNo!)).toEqual({ n: 1, amount: placed.data.amount });
    const orders = (await asParent(t, token, { method: 'GET', url: ALBUM_APP_PATHS.orders })).json().data;
    expect(orders[0]).toMatchObject({ id: placed.data.id, state: ALBUM_ORDER_PAID, outcome: 'none' });
  });

  it('pays an unfinished order again through Pay, and answers 404 for another family’s order', async () => {
    const mine = await parentWithAlbumBook(t, schoolId);
    const other = await parentWithAlbumBook(t, schoolId);
    const placed = (await asParent(t, mine.token, { method: 'POST', url: ALBUM_APP_PATHS.order, payload: { bookId: mine.bookId, kind: 2 } })).json().data;
    const retried = (await asParent(t, mine.token, { method: 'POST', url: ALBUM_APP_PATHS.pay, payload: { orderId: placed.id } })).json();
    expect(retried.data).toMatchObject({ id: placed.id, outcome: 'pending', state: ALBUM_ORDER_UNPAID, viewUrl: null });
    expect((await asParent(t, other.token, { method: 'POST', url: ALBUM_APP_PATHS.pay, payload: { orderId: placed.id } })).statusCode).toBe(404);
  });
});

describe('deleting a book', () => {
  it('deletes its PDF from the store, and keeps both while an order holds the book', async () => {
    const admin = await t.loginAs('admin');
    const { bookId } = await doneAlbumBook(t, schoolId);
    const [book] = await t.db.select({ pdfFile: albumBooks.pdfFile }).from(albumBooks).where(eq(albumBooks.id, bookId));
    const key = uploadKeyOf(book!.pdfFile!);
    expect((await t.app.uploads.stat(key))?.size).toBeGreaterThan(0);
    await call(t, admin, 'POST', '/api/AlbumBook/BatchDelete', [bookId]);
    expect(await t.app.uploads.stat(key)).toBeUndefined();

    const ordered = await parentWithAlbumBook(t, schoolId);
    await asParent(t, ordered.token, { method: 'POST', url: ALBUM_APP_PATHS.order, payload: printedOrder(ordered.bookId) });
    const [kept] = await t.db.select({ pdfFile: albumBooks.pdfFile }).from(albumBooks).where(eq(albumBooks.id, ordered.bookId));
    const refused = await t.injectAs(admin, { method: 'POST', url: '/api/AlbumBook/BatchDelete', payload: [ordered.bookId] });
    expect(refused.statusCode).not.toBe(200);
    expect((await t.app.uploads.stat(uploadKeyOf(kept!.pdfFile!)))?.size).toBeGreaterThan(0);
  });
});
