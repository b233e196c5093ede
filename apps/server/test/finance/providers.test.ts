import { and, desc, eq, inArray, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFUND_REFUNDING, REFUND_SUCCEEDED } from '@campus/contract';
import { demoProviderRefunds, paymentNotifications, paymentProviderCalls, refunds } from '../../src/db/schema/index.js';
import { checkLedger } from '../../src/finance/ledger-check.js';
import { recordPayment } from '../../src/finance/payments.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { fixture, wechatEnv } from './wechatpay-fixture.js';

const callsOf = (t: TestApp, reference: string) =>
  t.db.select().from(paymentProviderCalls).where(eq(paymentProviderCalls.reference, reference)).orderBy(desc(paymentProviderCalls.id));

describe('the demo payment provider', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const refund = (outRefundNo: string, refundAmount: number) => t.app.payments.byName('demo')!.refund({ outTradeNo: 'PAY-DEMO-1', outRefundNo, refundAmount, totalAmount: 1000 });

  it('refunds at once, once per refund number, never beyond the payment, and records every call', async () => {
    expect(await refund('RF-D-1', 600)).toMatchObject({ outcome: 'succeeded' });
    expect(await refund('RF-D-1', 600)).toMatchObject({ outcome: 'succeeded' });
    expect(await refund('RF-D-2', 600)).toMatchObject({ outcome: 'failed', message: expect.stringContaining('NOT_ENOUGH') });
    const [made] = await t.db.select({ sum: sql<number>`sum(amount)::int` }).from(demoProviderRefunds).where(eq(demoProviderRefunds.outTradeNo, 'PAY-DEMO-1'));
    expect(made!.sum).toBe(600);
    expect((await callsOf(t, 'RF-D-1')).map((call) => [call.provider, call.operation, call.outcome])).toEqual([
      ['demo', 'refund', 'ok'],
      ['demo', 'refund', 'ok'],
    ]);
    expect((await callsOf(t, 'RF-D-2'))[0]).toMatchObject({ outcome: 'failed', message: expect.stringContaining('NOT_ENOUGH'), request: expect.objectContaining({ refundAmount: 600 }) });
  });

  it('is steered by tests: a lost answer and a timeout still refund (a query finds it), a failure carries its message', async () => {
    t.app.payments.demo.steer('refund', { outcome: 'unknown' }, 1);
    expect(await refund('RF-D-3', 100)).toMatchObject({ outcome: 'unknown' });
    t.app.payments.demo.steer('refund', { outcome: 'timeout' }, 1);
    expect(await refund('RF-D-4', 100)).toMatchObject({ outcome: 'unknown', message: expect.stringContaining('TimeoutError') });
    expect((await callsOf(t, 'RF-D-4'))[0]).toMatchObject({ outcome: 'unknown' });
    expect(await t.app.payments.byName('demo')!.queryRefund('RF-D-4')).toMatchObject({ outcome: 'succeeded' });
    t.app.payments.demo.steer('refund', { outcome: 'failed', message: 'PARAM_ERROR: refused for the test' }, 1);
    expect(await refund('RF-D-5', 100)).toEqual({ outcome: 'failed', message: 'PARAM_ERROR: refused for the test' });
    expect(await t.app.payments.byName('demo')!.queryRefund('RF-D-5')).toMatchObject({ outcome: 'failed' });
    // The steering was for one call only.
    expect(await refund('RF-D-5', 100)).toMatchObject({ outcome: 'succeeded' });
  });

  it('answers 404 on the WeChat Pay notification address while WeChat Pay is not configured', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/Pay/Notify/WechatPay', payload: fixture.notifications.refundSuccess!.body, headers: { 'content-type': 'application/json' } });
    expect(response.statusCode).toBe(404);
  });
});

describe('POST /api/Pay/Notify/WechatPay', () => {
  let t: TestApp;
  beforeAll(async () => {
    // The test clock starts at the fixture's recording time, so the recorded signatures are fresh.
    t = await createTestApp({ env: wechatEnv });
  });
  afterAll(() => t.close());

  const deliver = (name: string, change: (body: string) => string = (body) => body) => {
    const recorded = fixture.notifications[name]!;
    return t.app.inject({ method: 'POST', url: '/api/Pay/Notify/WechatPay', payload: change(recorded.body), headers: { ...recorded.headers, 'content-type': 'application/json' } });
  };

  it('applies a verified notification once, however often and however concurrently it is delivered', async () => {
    const answers = await Promise.all([deliver('paymentSuccess'), deliver('paymentSuccess'), deliver('paymentSuccess'), deliver('paymentSuccess')]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200]);
    expect(answers[0]!.json()).toMatchObject({ code: 200 });
    expect((await deliver('paymentSuccess')).statusCode).toBe(200);
    // Recorded once, for the order its attach names, with its split posted in the same transaction.
    const stored = (await t.db.execute(sql`select id, school_id as "schoolId", charge_item_id as "chargeItemId", amount::int as amount, channel, out_trade_no as "outTradeNo", to_char(paid_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') as "paidAt"
      from payment_records where trade_no = '1217752501201407033233368018'`)) as unknown as { rows: Record<string, unknown>[] };
    expect(stored.rows).toEqual([
      { id: expect.any(Number), schoolId: 1, chargeItemId: 1, amount: 10_000, channel: 'wechat', outTradeNo: 'PAY202603020001', paidAt: '2026-03-02T00:59:00' },
    ]);
    const legs = (await t.db.execute(sql`select coalesce(sum(amount), 0)::int as total from agent_fund_entries where payment_id = ${stored.rows[0]!.id}`)) as unknown as { rows: { total: number }[] };
    expect(legs.rows[0]!.total).toBe(10_000);
    expect((await checkLedger(t.db)).isConsistent).toBe(true);
    const [row] = await t.db.select().from(paymentNotifications).where(and(eq(paymentNotifications.provider, 'wechatpay'), eq(paymentNotifications.notificationId, 'EV-2026030200000003')));
    expect(row).toMatchObject({ kind: 'payment', reference: 'PAY202603020001', deliveries: 5, processedAt: expect.any(Date) });
    const calls = await callsOf(t, 'PAY202603020001');
    expect(calls.map((call) => [call.operation, call.outcome, call.message]).sort()).toEqual([
      ['notify', 'ok', 'applied'],
      ['notify', 'ok', 'duplicate'],
      ['notify', 'ok', 'duplicate'],
      ['notify', 'ok', 'duplicate'],
      ['notify', 'ok', 'duplicate'],
    ]);
  });

  it('settles the refund a refund notification names, once', async () => {
    const found = (await t.db.execute(sql`select id from schools order by id limit 1`)) as unknown as { rows: { id: number }[] };
    const schoolId = Number(found.rows[0]!.id);
    const { payment } = await t.db.transaction((tx) => recordPayment(tx, { schoolId, amount: 10_000, channel: 'wechat', tradeNo: 'WX-NOTIFY-1', paidAt: t.clock.now() }));
    const [refund] = await t.db
      .insert(refunds)
      .values({ paymentId: payment.id, schoolId, reason: '家长申请', state: REFUND_REFUNDING, refundAmount: 2000, outRefundNo: 'RF202603020002', provider: 'wechatpay', nextQueryAt: t.clock.now() })
      .returning({ id: refunds.id });
    for (let i = 0; i < 2; i += 1) expect((await deliver('refundSuccess')).statusCode).toBe(200);
    const [settled] = await t.db.select().from(refunds).where(eq(refunds.id, refund!.id));
    expect(settled).toMatchObject({ state: REFUND_SUCCEEDED, providerRefundNo: expect.stringMatching(/^5000/) });
    const refunded = (await t.db.execute(sql`select refunded_amount as "refunded" from payment_records where id = ${payment.id}`)) as unknown as { rows: { refunded: number }[] };
    expect(Number(refunded.rows[0]!.refunded)).toBe(2000);
    expect((await checkLedger(t.db)).isConsistent).toBe(true);
  });

  it('refuses a notification whose signature does not verify, before reading it, in the envelope', async () => {
    for (const response of [await deliver('signedByStranger'), await deliver('paymentSuccess', (body) => body.replace('TRANSACTION.SUCCESS', 'TRANSACTION.SUCCESS '))]) {
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 400, message: 'the notification did not verify' });
    }
    const stored = await t.db.select().from(paymentNotifications).where(eq(paymentNotifications.notificationId, 'EV-2026030200000004'));
    expect(stored).toEqual([]);
    const [refused] = await t.db.select().from(paymentProviderCalls).where(eq(paymentProviderCalls.outcome, 'rejected')).limit(1);
    expect(refused).toMatchObject({ provider: 'wechatpay', operation: 'notify', message: 'signature does not verify' });
    const plain = await t.app.inject({ method: 'POST', url: '/api/Pay/Notify/WechatPay', payload: 'x', headers: { 'content-type': 'text/plain' } });
    expect(plain.statusCode).toBeGreaterThanOrEqual(400);
    expect(plain.statusCode).toBeLessThan(500);
  });

  it('refuses and records a correctly signed notification for another merchant or app, and records no payment', async () => {
    for (const name of ['paymentOtherMerchant', 'paymentOtherApp']) {
      const response = await deliver(name);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 400, message: 'the notification did not verify' });
    }
    const stored = await t.db.select().from(paymentNotifications).where(inArray(paymentNotifications.notificationId, ['EV-2026030200000005', 'EV-2026030200000006']));
    expect(stored).toEqual([]);
    const refused = await t.db.select({ message: paymentProviderCalls.message }).from(paymentProviderCalls).where(and(eq(paymentProviderCalls.outcome, 'rejected'), like(paymentProviderCalls.message, 'notification for %')));
    expect(refused.map((row) => row.message).sort()).toEqual(['notification for app wx0000000000000999, not wxd678efh567hg6787', 'notification for merchant 1900000999, not 1900000109']);
  });
});
