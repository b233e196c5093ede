import { createVerify } from 'node:crypto';
import { APP_PATHS } from '@campus/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { FAKE_WECHAT, fakeWechatEnv, fakeWechatFetch, paidNotification, type ReceivedOrders } from './fake-wechatpay.js';
import { asParent, demoParents, setParentPassword, signInParent, type DemoParent } from './support.js';

type Rows<T> = { rows: T[] };

/** The `overview` events the app publishes for `schoolId` from now on (docs/live.md: a payment moves the revenue). */
function overviewEventsOf(t: TestApp, schoolId: number): { count: () => number } {
  let count = 0;
  t.app.messenger.subscribe('live', (body) => {
    const event = body as { topic?: string; schoolId?: number | null };
    if (event.topic === 'overview' && event.schoolId === schoolId) count += 1;
  });
  return { count: () => count };
}

async function until(condition: () => boolean, timeoutMs = 3_000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
type Service = { studentId: number; state: string; serviceTo: string | null; chargeItems: { id: number; unitPrice: number; serviceMonths: number }[] };

async function servicesOf(t: TestApp, token: string): Promise<Service[]> {
  const response = await asParent(t, token, { method: 'GET', url: APP_PATHS.services });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as Service[];
}

describe('buying the service with the demo provider', () => {
  let t: TestApp;
  let parent: DemoParent;
  let stranger: DemoParent;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp();
    const all = await demoParents(t);
    parent = all[0]!;
    stranger = all.find((candidate) => candidate.schoolId !== parent.schoolId)!;
    await setParentPassword(t, parent.id);
    token = await signInParent(t, parent.phoneNum);
  });
  afterAll(() => t.close());

  it('settles at once, records the payment for the child and extends its service; a replay answers the same order', async () => {
    const [service] = await servicesOf(t, token);
    const item = service!.chargeItems[0]!;
    expect(item).toBeDefined();
    const headers = { 'idempotency-key': 'buy-demo-once' };
    const payload = { studentId: service!.studentId, chargeItemId: item.id };
    const overviews = overviewEventsOf(t, parent.schoolId);
    const bought = await asParent(t, token, { method: 'POST', url: APP_PATHS.buyService, headers, payload });
    expect(bought.statusCode, bought.body).toBe(200);
    await until(() => overviews.count() > 0);
    const order = bought.json().data;
    expect(order).toMatchObject({ outcome: 'paid', provider: 'demo', amount: item.unitPrice, payParams: null });
    expect(order.serviceTo).not.toBeNull();
    expect(order.serviceTo >= (service!.serviceTo ?? '')).toBe(true);
    const stored = (await t.db.execute(sql`select parent_id as "parentId", student_id as "studentId", charge_item_id as "chargeItemId", amount from payment_records where id = ${order.paymentId}`)) as unknown as Rows<Record<string, number>>;
    // node-postgres answers bigint money as text.
    expect(Object.fromEntries(Object.entries(stored.rows[0]!).map(([key, value]) => [key, Number(value)]))).toEqual({ parentId: parent.id, studentId: service!.studentId, chargeItemId: item.id, amount: item.unitPrice });
    const after = (await servicesOf(t, token)).find((entry) => entry.studentId === service!.studentId)!;
    expect(after).toMatchObject({ state: 'inService', serviceTo: order.serviceTo });

    const replay = await asParent(t, token, { method: 'POST', url: APP_PATHS.buyService, headers, payload });
    expect(replay.json().data).toEqual(order);
    const count = (await t.db.execute(sql`select count(*)::int as n from payment_records where out_trade_no = ${order.outTradeNo}`)) as unknown as Rows<{ n: number }>;
    expect(count.rows[0]!.n).toBe(1);
    const listed = await asParent(t, token, { method: 'GET', url: APP_PATHS.payments });
    expect(listed.json().data.rows[0].outTradeNo).toBe(order.outTradeNo);
  });

  it("answers 404 for another family's child and 400 for an item the school does not sell", async () => {
    const [service] = await servicesOf(t, token);
    const foreign = await asParent(t, token, { method: 'POST', url: APP_PATHS.buyService, payload: { studentId: stranger.childIds[0], chargeItemId: service!.chargeItems[0]!.id } });
    expect(foreign.statusCode).toBe(404);
    const unsold = await asParent(t, token, { method: 'POST', url: APP_PATHS.buyService, payload: { studentId: service!.studentId, chargeItemId: 999_999 } });
    expect(unsold.statusCode).toBe(400);
  });

  it('reads the inbox, marks notices read and registers a push token', async () => {
    const inbox = await asParent(t, token, { method: 'GET', url: `${APP_PATHS.inbox}?page=1&size=10` });
    expect(inbox.statusCode, inbox.body).toBe(200);
    expect(inbox.json().data).toMatchObject({ total: expect.any(Number), unread: expect.any(Number) });
    const marked = await asParent(t, token, { method: 'POST', url: APP_PATHS.markNoticesRead, payload: { ids: 'all' } });
    expect(marked.statusCode, marked.body).toBe(200);
    expect((await asParent(t, token, { method: 'GET', url: APP_PATHS.inbox })).json().data.unread).toBe(0);
    const pushed = await asParent(t, token, { method: 'POST', url: APP_PATHS.registerPushToken, payload: { platform: 'android', token: 'jpush-registration-0001', appVersion: '3.2.0' } });
    expect(pushed.statusCode, pushed.body).toBe(200);
  });
});

describe('buying the service with WeChat Pay', () => {
  let t: TestApp;
  let parent: DemoParent;
  let token: string;
  const received: ReceivedOrders = [];

  beforeAll(async () => {
    let now = () => new Date();
    t = await createTestApp({ env: fakeWechatEnv, paymentProviders: { fetch: fakeWechatFetch(received, () => now()) } });
    now = () => t.clock.now();
    parent = (await demoParents(t))[1]!;
    await setParentPassword(t, parent.id);
    token = await signInParent(t, parent.phoneNum);
  });
  afterAll(() => t.close());

  it("answers the app SDK's signed prepay parameters, and the payment notification records the payment and extends the service", async () => {
    const [service] = await servicesOf(t, token);
    const item = service!.chargeItems[0]!;
    const bought = await asParent(t, token, { method: 'POST', url: APP_PATHS.buyService, payload: { studentId: service!.studentId, chargeItemId: item.id, scene: 'app' } });
    expect(bought.statusCode, bought.body).toBe(200);
    const order = bought.json().data;
    expect(order).toMatchObject({ outcome: 'pending', provider: 'wechatpay', paymentId: null });
    const params = order.payParams;
    expect(params).toMatchObject({ appid: FAKE_WECHAT.appId, partnerid: FAKE_WECHAT.mchId, package: 'Sign=WXPay', prepayid: expect.stringMatching(/^wx/) });
    const message = `${params.appid}\n${params.timestamp}\n${params.noncestr}\n${params.prepayid}\n`;
    expect(createVerify('RSA-SHA256').update(message).verify(FAKE_WECHAT.merchantPublicKey, params.sign, 'base64')).toBe(true);

    const sent = received.at(-1)!;
    expect(sent.out_trade_no).toBe(order.outTradeNo);
    expect(JSON.parse(String(sent.attach))).toEqual({ schoolId: parent.schoolId, parentId: parent.id, studentId: service!.studentId, chargeItemId: item.id });

    const notification = paidNotification(sent, t.clock.now());
    const overviews = overviewEventsOf(t, parent.schoolId);
    const notified = await t.app.inject({ method: 'POST', url: '/api/Pay/Notify/WechatPay', headers: notification.headers, payload: notification.body });
    expect(notified.statusCode, notified.body).toBe(200);
    await until(() => overviews.count() > 0);
    // A repeated delivery applies nothing, so it moves no figure.
    const settled = overviews.count();
    const again = await t.app.inject({ method: 'POST', url: '/api/Pay/Notify/WechatPay', headers: notification.headers, payload: notification.body });
    expect(again.statusCode, again.body).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(overviews.count()).toBe(settled);
    const stored = (await t.db.execute(sql`select parent_id as "parentId", student_id as "studentId", channel from payment_records where out_trade_no = ${order.outTradeNo}`)) as unknown as Rows<Record<string, unknown>>;
    expect(stored.rows[0]).toEqual({ parentId: parent.id, studentId: service!.studentId, channel: 'wechat' });
    const after = (await servicesOf(t, token)).find((entry) => entry.studentId === service!.studentId)!;
    expect(after.state).toBe('inService');
  });
});
