import { REFUND_FAILED, REFUND_REFUNDING, REFUND_SUCCEEDED } from '@campus/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { demoProviderRefunds, refunds, users } from '../../src/db/schema/index.js';
import { checkLedger } from '../../src/finance/ledger-check.js';
import { recordPayment } from '../../src/finance/payments.js';
import { queryRefundsInFlight, sendRefund } from '../../src/finance/refunds.js';
import { hashPassword, md5Hex } from '../../src/platform/passwords.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const REFUND_PASSWORD = 'Refund@1';

describe('refunds (refundManage)', () => {
  let t: TestApp;
  let admin: string;
  let schoolId: number;
  let trade = 0;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.loginAs('admin');
    await t.db.update(users).set({ refundPasswordHash: await hashPassword(md5Hex(REFUND_PASSWORD)) }).where(eq(users.loginName, 'admin'));
    const found = (await t.db.execute(sql`select id from schools order by id limit 1`)) as unknown as { rows: { id: number }[] };
    schoolId = Number(found.rows[0]!.id);
  });
  afterAll(() => t.close());
  // Money rules hold after every test: each account's balance is the sum of its entries, each payment its legs.
  afterEach(async () => {
    t.app.payments.demo.steer('refund', undefined);
    t.app.payments.demo.steer('refundQuery', undefined);
    expect((await checkLedger(t.db)).isConsistent).toBe(true);
  });

  const newPayment = async (amount: number) => {
    trade += 1;
    const { payment } = await t.db.transaction((tx) => recordPayment(tx, { schoolId, amount, channel: 'wechat', tradeNo: `T-REFUND-${trade}-${Date.now()}`, paidAt: t.clock.now() }));
    return payment;
  };
  const post = (verb: string, payload: object) => t.injectAs(admin, { method: 'POST', url: `/api/Refund/${verb}`, payload });
  const apply = async (paymentId: number) => {
    const response = await post('Add', { paymentId, reason: '家长申请退款' });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.id as number;
  };
  const refund = (id: number, refundAmount?: number, password = REFUND_PASSWORD) =>
    post('Refund', { id, ...(refundAmount === undefined ? {} : { refundAmount }), reauthPassword: md5Hex(password) });
  const refundRow = async (id: number) => (await t.db.select().from(refunds).where(eq(refunds.id, id)))[0]!;
  const refundedOf = async (paymentId: number) => {
    const found = (await t.db.execute(sql`select refunded_amount as "refunded" from payment_records where id = ${paymentId}`)) as unknown as { rows: { refunded: number }[] };
    return Number(found.rows[0]!.refunded);
  };
  const madeAtProvider = async (outTradeNo: string) => {
    const [row] = await t.db.select({ sum: sql<number>`coalesce(sum(amount), 0)::int`, n: sql<number>`count(*)::int` }).from(demoProviderRefunds).where(eq(demoProviderRefunds.outTradeNo, outTradeNo));
    return { sum: Number(row!.sum), count: Number(row!.n) };
  };

  it('refunds part of a payment with the refund password: succeeded, reversed in the ledger, numbered', async () => {
    const payment = await newPayment(10_000);
    const id = await apply(payment.id);
    const response = await refund(id, 3000);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({ id, state: REFUND_SUCCEEDED });
    expect(await refundRow(id)).toMatchObject({ state: REFUND_SUCCEEDED, refundAmount: 3000, outRefundNo: expect.stringMatching(/^RF\d{8}\d{8}$/), refundedAt: expect.any(Date) });
    expect(await refundedOf(payment.id)).toBe(3000);
    expect(await madeAtProvider(payment.outTradeNo)).toEqual({ sum: 3000, count: 1 });
    const history = (await t.injectAs(admin, { method: 'GET', url: `/api/Refund/History?id=${id}` })).json().data as { verb: string }[];
    expect(history.map((entry) => entry.verb)).toEqual(['Refund', 'Succeed']);
    // The rest, in full: nothing is given, all that is left goes.
    const rest = await apply(payment.id);
    expect((await refund(rest)).json().data).toMatchObject({ state: REFUND_SUCCEEDED });
    expect(await refundedOf(payment.id)).toBe(10_000);
    expect((await post('Add', { paymentId: payment.id, reason: '再退' })).json().data.errors).toEqual([expect.objectContaining({ path: 'paymentId', key: 'refund.paymentFullyRefunded' })]);
  });

  it('shows the approver the amount asked: what is left of the payment while it waits, the amount sent once sent (issue 26)', async () => {
    const payment = await newPayment(8000);
    const first = await apply(payment.id);
    await refund(first, 2500);
    const waiting = await apply(payment.id);
    const askedOf = async (id: number) => {
      const found = await t.injectAs(admin, { method: 'GET', url: `/api/Refund/Get?id=${id}` });
      expect(found.statusCode, found.body).toBe(200);
      return found.json().data.askedAmount;
    };
    expect(await askedOf(first)).toBe(2500);
    expect(await askedOf(waiting)).toBe(5500);
    const page = await post('Search', { paymentId: payment.id });
    expect(page.json().data.items.map((row: { id: number; askedAmount: number }) => [row.id, row.askedAmount])).toEqual([
      [waiting, 5500],
      [first, 2500],
    ]);
  });

  it('lets exactly the payment through when 20 refunds of it are attempted at once', async () => {
    const payment = await newPayment(10_000);
    const ids: number[] = [];
    for (let i = 0; i < 20; i += 1) ids.push(await apply(payment.id));
    const answers = await Promise.all(ids.map((id, i) => refund(id, i % 2 === 0 ? undefined : 4000)));
    for (const answer of answers) expect([200, 400, 409]).toContain(answer.statusCode);
    const rows = await Promise.all(ids.map(refundRow));
    const succeeded = rows.filter((row) => row.state === REFUND_SUCCEEDED).reduce((sum, row) => sum + Number(row.refundAmount), 0);
    expect(rows.filter((row) => row.state === REFUND_REFUNDING)).toEqual([]);
    expect(succeeded).toBeLessThanOrEqual(10_000);
    expect(await refundedOf(payment.id)).toBe(succeeded);
    expect((await madeAtProvider(payment.outTradeNo)).sum).toBe(succeeded);
    // Whatever the interleaving, what is left can be refunded once more and then nothing.
    if (succeeded < 10_000) expect((await refund(await apply(payment.id))).json().data).toMatchObject({ state: REFUND_SUCCEEDED });
    expect(await refundedOf(payment.id)).toBe(10_000);
  });

  it('keeps one refund of a payment in flight at a time, and refuses a sum beyond the payment', async () => {
    const payment = await newPayment(5000);
    const [first, second] = [await apply(payment.id), await apply(payment.id)];
    t.app.payments.demo.steer('refund', { outcome: 'pending' }, 1);
    expect((await refund(first, 2000)).json().data).toMatchObject({ state: REFUND_REFUNDING });
    expect((await refund(second, 1000)).statusCode).toBe(409);
    t.clock.advance(60_000);
    // The job settles it (and any demo refund in flight that is due).
    expect(await queryRefundsInFlight(t.db, t.app.payments, () => t.clock.now(), t.app.log)).toBeGreaterThanOrEqual(1);
    expect((await refundRow(first)).state).toBe(REFUND_SUCCEEDED);
    const tooMuch = await refund(second, 3001);
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().data.errors).toEqual([expect.objectContaining({ path: 'refundAmount', key: 'refund.exceedsPayment' })]);
    expect((await refund(second, 3000)).json().data).toMatchObject({ state: REFUND_SUCCEEDED });
  });

  it('leaves a refund without an answer refunding, and the query job settles it', async () => {
    const payment = await newPayment(8000);
    const id = await apply(payment.id);
    t.app.payments.demo.steer('refund', { outcome: 'timeout' }, 1);
    expect((await refund(id, 2500)).json().data).toMatchObject({ state: REFUND_REFUNDING });
    expect(await refundedOf(payment.id)).toBe(0);
    // Not due yet: nothing is asked.
    expect(await queryRefundsInFlight(t.db, t.app.payments, () => t.clock.now(), t.app.log)).toBe(0);
    t.app.payments.demo.steer('refundQuery', { outcome: 'unknown' }, 1);
    t.clock.advance(60_000);
    expect(await queryRefundsInFlight(t.db, t.app.payments, () => t.clock.now(), t.app.log)).toBe(0);
    expect(await refundRow(id)).toMatchObject({ state: REFUND_REFUNDING, queryAttempts: 2 });
    t.clock.advance(2 * 60_000);
    expect(await queryRefundsInFlight(t.db, t.app.payments, () => t.clock.now(), t.app.log)).toBe(1);
    expect(await refundRow(id)).toMatchObject({ state: REFUND_SUCCEEDED });
    expect(await refundedOf(payment.id)).toBe(2500);
    expect(await madeAtProvider(payment.outTradeNo)).toEqual({ sum: 2500, count: 1 });
  });

  it('shows a failure with the provider message and retries it under the same number, never refunding twice', async () => {
    const payment = await newPayment(6000);
    const id = await apply(payment.id);
    t.app.payments.demo.steer('refund', { outcome: 'failed', message: 'SYSTEM_BUSY: try later' }, 1);
    expect((await refund(id, 1500)).json().data).toMatchObject({ state: REFUND_FAILED });
    const failed = await refundRow(id);
    expect(failed).toMatchObject({ providerMessage: 'SYSTEM_BUSY: try later', refundAmount: 1500 });
    const retried = await post('Retry', { id, reauthPassword: md5Hex(REFUND_PASSWORD) });
    expect(retried.json().data).toMatchObject({ state: REFUND_SUCCEEDED });
    expect((await refundRow(id)).outRefundNo).toBe(failed.outRefundNo);
    // The same number sent again (a retried call after a lost answer) is the same refund.
    // A settled refund is never sent again.
    expect(await sendRefund(t.db, t.app.payments, id, () => t.clock.now())).toBeUndefined();
    expect(await t.app.payments.byName('demo')!.refund({ outTradeNo: payment.outTradeNo, outRefundNo: failed.outRefundNo!, refundAmount: 1500, totalAmount: 6000 })).toMatchObject({ outcome: 'succeeded' });
    expect(await madeAtProvider(payment.outTradeNo)).toEqual({ sum: 1500, count: 1 });
    expect(await refundedOf(payment.id)).toBe(1500);
  });

  it('refuses a wrong refund password, and locks the operator after five', async () => {
    const payment = await newPayment(1000);
    const id = await apply(payment.id);
    for (let i = 0; i < 4; i += 1) {
      const wrong = await refund(id, 100, 'wrong-one');
      expect(wrong.json().data.errors).toEqual([expect.objectContaining({ path: 'reauthPassword', key: 'workflow.wrongRefundPassword' })]);
    }
    expect((await refund(id, 100, 'wrong-one')).json().data.errors).toEqual([expect.objectContaining({ key: 'refundPassword.locked' })]);
    expect((await refund(id, 100)).json().data.errors).toEqual([expect.objectContaining({ key: 'refundPassword.locked' })]);
    expect((await refundRow(id)).state).toBe(1);
    t.clock.advance(10 * 60_000 + 1000);
    expect((await refund(id, 100)).json().data).toMatchObject({ state: REFUND_SUCCEEDED });
  });

  it('refuses a 51st refund of one payment', async () => {
    const payment = await newPayment(100_000);
    for (let i = 0; i < 50; i += 1) {
      const id = await apply(payment.id);
      await t.db.update(refunds).set({ state: REFUND_FAILED, refundAmount: 1, outRefundNo: `RF-MANY-${payment.id}-${i}` }).where(eq(refunds.id, id));
    }
    const last = await apply(payment.id);
    expect((await refund(last, 100)).json().data.errors).toEqual([expect.objectContaining({ path: 'refundAmount', key: 'refund.tooManyRefunds' })]);
  });
});
