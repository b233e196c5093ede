import { REFUND_SUCCEEDED } from '@campus/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema/index.js';
import { recordPayment } from '../../src/finance/payments.js';
import { hashPassword, md5Hex } from '../../src/platform/passwords.js';
import { probesUserKey } from '../../src/platform/probes.js';
import { setSetting } from '../../src/platform/settings.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { grantEverything, readWorkbook, schoolIdsOf, schoolLike, unique, userIdOf } from '../resources/fixtures.js';

const REFUND_PASSWORD = 'Refund@1';

let t: TestApp;
let admin: string;
let agent1School: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.loginAs('admin');
  await t.db.update(users).set({ refundPasswordHash: await hashPassword(md5Hex(REFUND_PASSWORD)) }).where(eq(users.loginName, 'admin'));
  agent1School = (await schoolIdsOf(t, 'agent1'))[0]!;
});
afterAll(() => t.close());

type Totals = Record<string, number>;
type Answer = { items: Record<string, unknown>[]; total: number; totals: Totals };
const dataOf = (response: { statusCode: number; body: string; json(): { data: unknown } }) => {
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as Answer;
};
const search = (token: string, report: string, body: Record<string, unknown>) =>
  t.injectAs(token, { method: 'POST', url: `/api/${report}/Search`, payload: { pageIndex: 1, pageSize: 200, ...body } });
const one = async (query: ReturnType<typeof sql>) => ((await t.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows[0]!;

/** A school of agent1's of its own, split 50 / 30 / 20 from 2026. */
async function splitSchool(): Promise<number> {
  const schoolId = await schoolLike(t, agent1School);
  const added = await t.injectAs(admin, {
    method: 'POST',
    url: '/api/ServiceConfig/Add',
    payload: { schoolId, mode: 1, splitRules: [{ effectiveFrom: '2026-01-01', companyPercent: 50, agentPercent: 30, schoolPercent: 20 }] },
  });
  expect(added.statusCode, added.body).toBe(200);
  return schoolId;
}

const pay = (schoolId: number, amount: number, paidAt: string, channel: 'wechat' | 'alipay' = 'wechat') =>
  t.db.transaction(async (tx) => (await recordPayment(tx, { schoolId, amount, channel, tradeNo: `T${unique()}`, paidAt: new Date(paidAt) })).payment);

/** Applies for and refunds `amount` of a payment through the Refund workflow (the demo provider settles at once). */
async function refundPart(paymentId: number, amount: number): Promise<void> {
  const applied = await t.injectAs(admin, { method: 'POST', url: '/api/Refund/Add', payload: { paymentId, reason: '家长申请退款' } });
  expect(applied.statusCode, applied.body).toBe(200);
  const refunded = await t.injectAs(admin, {
    method: 'POST',
    url: '/api/Refund/Refund',
    payload: { id: applied.json().data.id, refundAmount: amount, reauthPassword: md5Hex(REFUND_PASSWORD) },
  });
  expect(refunded.statusCode, refunded.body).toBe(200);
  expect(refunded.json().data.state).toBe(REFUND_SUCCEEDED);
}

/** What the payment and refund rows of the business days [from, to] hold, summed directly. */
async function directSums(from: string, to: string, schoolId?: number): Promise<Totals> {
  const school = schoolId === undefined ? sql`true` : sql`p.school_id = ${schoolId}`;
  const paid = await one(sql`select count(*)::int as payments, coalesce(sum(amount), 0)::bigint as paid from payment_records p
    where ${school} and (p.paid_at at time zone 'Asia/Shanghai')::date between ${from}::date and ${to}::date`);
  const refunded = await one(sql`select count(*)::int as refunds, coalesce(sum(r.refund_amount), 0)::bigint as refunded
    from refunds r join payment_records p on p.id = r.payment_id
    where ${school} and r.state = ${REFUND_SUCCEEDED} and (r.refunded_at at time zone 'Asia/Shanghai')::date between ${from}::date and ${to}::date`);
  return { payments: Number(paid.payments), paid: Number(paid.paid), refunds: Number(refunded.refunds), refunded: Number(refunded.refunded) };
}

describe('POST /api/TransactionStatistics/Search', () => {
  it('sums the payments and refunds of each business day, and keeps totals equal to their rows after a partial refund', async () => {
    const schoolId = await splitSchool();
    // 23:30 in Shanghai is 15:30 UTC the same date; 00:10 the next day is still the previous day in UTC.
    const first = await pay(schoolId, 10_000, '2026-02-10T23:30:00+08:00');
    await pay(schoolId, 5_001, '2026-02-10T09:00:00+08:00', 'alipay');
    await pay(schoolId, 2_000, '2026-02-11T00:10:00+08:00');
    const range = { dayFrom: '2026-02-01', dayTo: '2026-03-31', schoolId };

    const before = dataOf(await search(admin, 'TransactionStatistics', range));
    expect(before.totals).toMatchObject({ payments: 3, paid: 17_001, refunds: 0, refunded: 0, net: 17_001 });
    expect(before.totals).toMatchObject(await directSums('2026-02-01', '2026-03-31', schoolId));
    const days = (answer: Answer) => answer.items.map((row) => [row.period, row.channel, row.paid, row.refunded]);
    expect(days(before)).toEqual([
      ['2026-02-11', 'wechat', 2_000, 0],
      ['2026-02-10', 'alipay', 5_001, 0],
      ['2026-02-10', 'wechat', 10_000, 0],
    ]);
    expect(before.items[0]).toMatchObject({ schoolId, agentIdLabel: '华东智慧校园代理', chargeItemId: null });

    // The refund settles on the test clock's day (2026-03-02 in Shanghai), under the payment's keys.
    await refundPart(first.id, 3_000);
    const after = dataOf(await search(admin, 'TransactionStatistics', range));
    expect(after.totals).toMatchObject({ payments: 3, paid: 17_001, refunds: 1, refunded: 3_000, net: 14_001 });
    expect(after.totals).toMatchObject(await directSums('2026-02-01', '2026-03-31', schoolId));
    expect(after.items[0]).toMatchObject({ period: '2026-03-02', channel: 'wechat', payments: 0, paid: 0, refunds: 1, refunded: 3_000, net: -3_000 });
    // The shares are the ledger's: they add up to the net, and each equals its accounts' entries.
    expect(after.totals.companyShare! + after.totals.agentShare! + after.totals.schoolShare!).toBe(after.totals.net);
    const ledger = await one(sql`select coalesce(sum(e.amount) filter (where e.account_type = 2), 0)::bigint as agent, coalesce(sum(e.amount) filter (where e.account_type = 3), 0)::bigint as school
      from agent_fund_entries e join payment_records p on p.id = e.payment_id where p.school_id = ${schoolId}`);
    expect([after.totals.agentShare, after.totals.schoolShare]).toEqual([Number(ledger.agent), Number(ledger.school)]);

    // The month report reads its own rollup: the same totals, February and March apart.
    const months = dataOf(await search(admin, 'TransactionMonthStatistics', { ...range, dayFrom: '2026-02-15' }));
    expect(months.totals).toEqual(after.totals);
    const byMonth = dataOf(await t.injectAs(admin, { method: 'GET', url: `/api/TransactionMonthStatistics/GetSummary?groupBy=period&dayFrom=2026-02-01&dayTo=2026-03-31&schoolId=${schoolId}` }));
    expect(byMonth.items.map((row) => [row.period, row.paid, row.refunded])).toEqual([
      ['2026-03-01', 0, 3_000],
      ['2026-02-01', 17_001, 0],
    ]);
  });

  it('answers, over every school, the totals of every payment and refund row', async () => {
    const all = dataOf(await search(admin, 'TransactionStatistics', { dayFrom: '2025-03-03', dayTo: '2026-03-02' }));
    expect(all.totals).toMatchObject(await directSums('2025-03-03', '2026-03-02'));
    expect(all.totals.paid).toBeGreaterThan(0);
  });

  it('keeps agents to their schools and hides money where hideAmountColumns holds', async () => {
    const schoolId = await splitSchool();
    await pay(schoolId, 1_234, '2026-02-20T10:00:00+08:00');
    const range = { dayFrom: '2026-02-20', dayTo: '2026-02-20', schoolId };
    await Promise.all([grantEverything(t, 'agent1'), grantEverything(t, 'agent2')]);
    const [agent1, agent2] = await Promise.all([t.loginAs('agent1'), t.loginAs('agent2')]);
    expect(dataOf(await search(agent1, 'TransactionStatistics', range)).totals).toMatchObject({ payments: 1, paid: 1_234 });
    expect(dataOf(await search(agent2, 'TransactionStatistics', range))).toMatchObject({ items: [], total: 0 });

    await setSetting(t.db, probesUserKey(await userIdOf(t, 'agent1')), { hideAmountColumns: true });
    const hidden = dataOf(await search(agent1, 'TransactionStatistics', range));
    expect(hidden.totals).toEqual({ payments: 1, refunds: 0 });
    expect(hidden.items.every((row) => !('paid' in row) && !('agentShare' in row))).toBe(true);
    const sheet = await readWorkbook(await t.injectAs(agent1, { method: 'GET', url: `/api/TransactionStatistics/Export?lang=en&dayFrom=2026-02-20&dayTo=2026-02-20&schoolId=${schoolId}` }));
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(['Period', 'School', 'Agent', 'Channel', 'Charge item', 'Payments', 'Refunds']);
  });
});
