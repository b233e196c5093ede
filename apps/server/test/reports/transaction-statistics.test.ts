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
    expect(after.totals.companyShare! + after.totals.agentShare! + after.totals.schoolShare! + after.totals.merchantShare!).toBe(after.totals.net);
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

describe('POST /api/TransactionStatistics/Search: pages, group counts and totals', () => {
  type PageAnswer = Answer & { totalIsCapped: boolean; totalIsEstimate: boolean; hasMore: boolean };
  const MEASURES = ['payments', 'paid', 'refunds', 'refunded', 'net', 'companyShare', 'agentShare', 'schoolShare', 'merchantShare'];
  const keyOf = (row: Record<string, unknown>) => ['period', 'schoolId', 'agentId', 'channel', 'chargeItemId'].map((name) => String(row[name])).join('|');

  /** Every page of a Search, in order, until one says no page follows. */
  async function walk(app: TestApp, token: string, body: Record<string, unknown>, pageSize: number): Promise<PageAnswer[]> {
    const pages: PageAnswer[] = [];
    for (let pageIndex = 1; pageIndex <= 100; pageIndex += 1) {
      const response = await app.injectAs(token, { method: 'POST', url: '/api/TransactionStatistics/Search', payload: { ...body, pageIndex, pageSize } });
      expect(response.statusCode, response.body).toBe(200);
      const page = response.json().data as PageAnswer;
      pages.push(page);
      if (!page.hasMore) return pages;
    }
    throw new Error('more than 100 pages');
  }

  it('names the groups of every page, and totals equal the sum of the groups of all pages', async () => {
    const range = { dayFrom: '2025-03-03', dayTo: '2026-03-02', sortField: 'paid', sortOrder: 'desc' };
    const whole = dataOf(await search(admin, 'TransactionStatistics', range)) as PageAnswer;
    const pageSize = Math.max(2, Math.ceil(whole.total / 4));
    const pages = await walk(t, admin, range, pageSize);
    expect(pages.length).toBeGreaterThan(2);
    const rows = pages.flatMap((page) => page.items);
    // No group repeated or skipped, in the asked order, each with its names.
    expect(new Set(rows.map(keyOf)).size).toBe(rows.length);
    expect(rows.length).toBe(whole.total);
    expect(rows.map((row) => row.paid)).toEqual([...rows.map((row) => Number(row.paid))].sort((a, b) => b - a));
    expect(rows.every((row) => typeof row.schoolIdLabel === 'string' && (row.agentId === null) === (row.agentIdLabel === null))).toBe(true);
    expect(rows.filter((row) => row.chargeItemId !== null).every((row) => typeof row.chargeItemIdLabel === 'string')).toBe(true);
    const summed = Object.fromEntries(MEASURES.map((name) => [name, rows.reduce((sum, row) => sum + Number(row[name]), 0)]));
    for (const page of pages) expect(page.totals).toEqual(summed);
    expect(summed).toMatchObject(await directSums('2025-03-03', '2026-03-02'));
    // A full page counts the groups; the last page proves them.
    expect(pages[0]).toMatchObject({ total: whole.total, totalIsCapped: false, totalIsEstimate: false, hasMore: true });
    expect(pages.at(-1)).toMatchObject({ total: whole.total, totalIsCapped: false, totalIsEstimate: false, hasMore: false });
    const pastTheEnd = dataOf(await search(admin, 'TransactionStatistics', { ...range, pageSize, pageIndex: pages.length + 2 })) as PageAnswer;
    expect(pastTheEnd).toMatchObject({ items: [], total: whole.total, hasMore: false, totals: summed });

    // Grouped by fewer dimensions (GetSummary), the day rows are summed into groups (one per day and school): same totals.
    const bySchool = dataOf(await t.injectAs(admin, { method: 'GET', url: '/api/TransactionStatistics/GetSummary?groupBy=period&groupBy=schoolId&dayFrom=2025-03-03&dayTo=2026-03-02' }));
    const groups = bySchool.items;
    expect(groups.every((row) => /^\d{4}-\d{2}-\d{2}$/.test(String(row.period)) && typeof row.schoolIdLabel === 'string')).toBe(true);
    expect(new Set(groups.map((row) => `${String(row.period)}|${String(row.schoolId)}`)).size).toBe(groups.length);
    expect(bySchool.totals).toEqual(summed);
    expect(Object.fromEntries(MEASURES.map((name) => [name, groups.reduce((sum, row) => sum + Number(row[name]), 0)]))).toEqual(summed);

    // The export holds every group, named, and closes with the same totals (money in yuan).
    const sheet = await readWorkbook(await t.injectAs(admin, { method: 'GET', url: '/api/TransactionStatistics/Export?lang=en&dayFrom=2025-03-03&dayTo=2026-03-02' }));
    expect(sheet.rowCount).toBe(1 + rows.length + 1);
    const last = sheet.getRow(sheet.rowCount).values as unknown[];
    expect(last[1]).toBe('Total');
    expect(last.slice(6)).toEqual(MEASURES.map((name) => (['payments', 'refunds'].includes(name) ? summed[name] : summed[name]! / 100)));
    expect(String((sheet.getRow(2).values as unknown[])[2])).not.toMatch(/^\d+$/);
  });

  describe('past 10,000 groups', () => {
    let counting: TestApp;
    let bounding: TestApp;
    /** 10,001 groups in 2020: one school, each day of the year × 28 charge items (no such items: unnamed). */
    const fill = (app: TestApp) =>
      app.db.execute(sql`insert into transaction_day_totals (day, school_id, agent_id, channel, charge_item_id, payments, paid, company_share)
        select date '2020-01-01' + (n % 366), ${agent1School}, 0, 'wechat', 100000 + n / 366, 1, 100, 100 from generate_series(0, 10000) n`);
    const year = { dayFrom: '2020-01-01', dayTo: '2020-12-31' };

    beforeAll(async () => {
      // A planner cost no count reaches, and one every count exceeds.
      [counting, bounding] = await Promise.all([createTestApp({ env: { SEARCH_COUNT_COST_LIMIT: '1000000000' } }), createTestApp({ env: { SEARCH_COUNT_COST_LIMIT: '0' } })]);
      await Promise.all([fill(counting), fill(bounding)]);
    });
    afterAll(async () => {
      await Promise.all([counting?.close(), bounding?.close()]);
    });

    it('counts up to the cap and says so, with the totals of every group', async () => {
      const token = await counting.loginAs('admin');
      const first = dataOf(await counting.injectAs(token, { method: 'POST', url: '/api/TransactionStatistics/Search', payload: { ...year, pageSize: 20 } })) as PageAnswer;
      expect(first).toMatchObject({ total: 10_000, totalIsCapped: true, totalIsEstimate: false, hasMore: true });
      expect(first.items).toHaveLength(20);
      expect(first.totals).toMatchObject({ payments: 10_001, paid: 1_000_100, net: 1_000_100, companyShare: 1_000_100, refunds: 0 });
      const last = dataOf(await counting.injectAs(token, { method: 'POST', url: '/api/TransactionStatistics/Search', payload: { ...year, pageSize: 200, pageIndex: 51 } })) as PageAnswer;
      expect(last).toMatchObject({ total: 10_001, totalIsCapped: false, totalIsEstimate: false, hasMore: false });
      expect(last.items).toHaveLength(1);
    });

    it('answers "more than" what the page proves where counting costs too much, never a guess', async () => {
      const token = await bounding.loginAs('admin');
      const page = (pageIndex: number) => bounding.injectAs(token, { method: 'POST', url: '/api/TransactionStatistics/Search', payload: { ...year, pageSize: 200, pageIndex } });
      const first = dataOf(await page(1)) as PageAnswer;
      expect(first).toMatchObject({ total: 200, totalIsCapped: true, totalIsEstimate: false, hasMore: true });
      const deep = dataOf(await page(40)) as PageAnswer;
      expect(deep).toMatchObject({ total: 40 * 200, totalIsCapped: true, totalIsEstimate: false, hasMore: true });
      // The page that ends the result proves the number.
      expect(dataOf(await page(51))).toMatchObject({ total: 10_001, totalIsEstimate: false, hasMore: false });
      expect(first.totals).toEqual(deep.totals);
    });
  });
});

describe('the per-school rollup of DataCenterPayments (transaction_school_periods)', () => {
  const numbers = (list: Record<string, unknown>[]) => list.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, k === 'period' ? v : Number(v)])));
  const all = async (query: ReturnType<typeof sql>) => ((await t.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;

  it('keeps each day, week and month of a school equal to its payment and refund rows after payments and a partial refund', async () => {
    const schoolId = await splitSchool();
    const first = await pay(schoolId, 4_000, '2026-02-13T10:00:00+08:00');
    // Monday of the next week, five minutes after midnight in Shanghai (still Sunday in UTC).
    await pay(schoolId, 2_500, '2026-02-16T00:05:00+08:00', 'alipay');
    await pay(schoolId, 1_000, '2026-01-31T23:59:00+08:00');
    await refundPart(first.id, 1_500);
    for (const grain of ['day', 'week', 'month'] as const) {
      const unit = sql.raw(`'${grain}'`);
      const periodOf = (column: string) => sql`date_trunc(${unit}, (${sql.raw(column)} at time zone 'Asia/Shanghai')::date::timestamp)::date`;
      const kept = await all(sql`select to_char(period, 'YYYY-MM-DD') as period, payments, paid, refunds, refunded
        from transaction_school_periods where school_id = ${schoolId} and grain = ${grain} order by 1`);
      const direct = await all(sql`with p as (select ${periodOf('paid_at')} as period, count(*) as payments, sum(amount) as paid from payment_records where school_id = ${schoolId} group by 1),
          r as (select ${periodOf('r.refunded_at')} as period, count(*) as refunds, sum(r.refund_amount) as refunded from refunds r join payment_records p on p.id = r.payment_id
                where p.school_id = ${schoolId} and r.state = ${REFUND_SUCCEEDED} group by 1)
        select to_char(coalesce(p.period, r.period), 'YYYY-MM-DD') as period, coalesce(p.payments, 0) as payments, coalesce(p.paid, 0) as paid,
          coalesce(r.refunds, 0) as refunds, coalesce(r.refunded, 0) as refunded
        from p full join r on r.period = p.period order by 1`);
      expect(direct.length).toBeGreaterThanOrEqual(grain === 'day' ? 4 : 3);
      expect(numbers(kept), grain).toEqual(numbers(direct));
    }
    // DataCenterPayments by week over a range that starts and ends mid-week reads whole weeks and days alike.
    const weeks = dataOf(await t.injectAs(admin, { method: 'GET', url: `/api/DataCenterPayments/GetSummary?groupBy=period&grain=week&dayFrom=2026-01-28&dayTo=2026-03-04&schoolId=${schoolId}` }));
    expect(weeks.items.map((row) => [row.period, row.payments, row.paid, row.refunds, row.refunded]).sort()).toEqual([
      ['2026-01-26', 1, 1_000, 0, 0],
      ['2026-02-09', 1, 4_000, 0, 0],
      ['2026-02-16', 1, 2_500, 0, 0],
      ['2026-03-02', 0, 0, 1, 1_500],
    ]);
  });
});
