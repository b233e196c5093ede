import { FUND_ACCOUNT_AGENT, FUND_ACCOUNT_COMPANY, FUND_ACCOUNT_SCHOOL, PaymentRecord } from '@campus/contract';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../../src/finance/ledger-check.js';
import { ensureAccount, reversalOf, splitAmount } from '../../src/finance/ledger.js';
import { postRefundReversal, recordPayment } from '../../src/finance/payments.js';
import { probesUserKey } from '../../src/platform/probes.js';
import { setSetting } from '../../src/platform/settings.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { grantEverything, readWorkbook, schoolIdsOf, schoolLike, unique, userIdOf } from '../resources/fixtures.js';

let t: TestApp;
let admin: string;
let agent1: string;
let agent2: string;
let child1: string;
let agent1School: number;

beforeAll(async () => {
  t = await createTestApp();
  [admin, agent1, agent2, child1] = await Promise.all([t.loginAs('admin'), t.loginAs('agent1'), t.loginAs('agent2'), t.loginAs('child1')]);
  agent1School = (await schoolIdsOf(t, 'agent1'))[0]!;
  // Every frame and button: the data scope alone decides what agent1 and its child account reach.
  await grantEverything(t, 'agent1');
  await grantEverything(t, 'child1');
});
afterAll(() => t.close());
// Whatever a test did, the ledger still proves: balances are the sums of entries, payments their legs.
afterEach(async () => {
  const check = await checkLedger(t.db);
  expect(check.mismatches).toEqual({ accounts: [], payments: [] });
});

type Rows = { rows: Record<string, unknown>[] };
const rowsOf = async (query: ReturnType<typeof sql>) => ((await t.db.execute(query)) as unknown as Rows).rows;
const post = (token: string, url: string, payload: Record<string, unknown>) => t.injectAs(token, { method: 'POST', url, payload });
const legsOf = async (paymentId: number) =>
  (await rowsOf(sql`select account_type as type, sum(amount)::bigint as amount from agent_fund_entries where payment_id = ${paymentId} group by account_type order by account_type`)).map(
    (row) => [Number(row.type), Number(row.amount)],
  );

/** A school of agent1's with a service config whose rules are the given ones. */
async function schoolWithRules(rules: { effectiveFrom: string; companyPercent: number; agentPercent: number; schoolPercent: number }[]): Promise<number> {
  const schoolId = await schoolLike(t, agent1School);
  const added = await post(admin, '/api/ServiceConfig/Add', { schoolId, mode: 1, splitRules: rules });
  expect(added.statusCode, added.body).toBe(200);
  return schoolId;
}

const pay = (schoolId: number, amount: number, paidAt: string, tradeNo = `T${unique()}`) =>
  t.db.transaction((tx) => recordPayment(tx, { schoolId, amount, channel: 'wechat', tradeNo, paidAt: new Date(paidAt) }));

describe('splitting a payment', () => {
  it('floors the agent and school shares and gives the remainder to the company', () => {
    expect(splitAmount(1001, { companyPercent: 33, agentPercent: 33, schoolPercent: 34 }, true)).toEqual({ company: 331, agent: 330, school: 340 });
    expect(splitAmount(1001, { companyPercent: 33, agentPercent: 33, schoolPercent: 34 }, false)).toEqual({ company: 661, agent: 0, school: 340 });
  });

  it('reverses partial refunds that add up to the payment into exactly its legs', () => {
    const legs = [
      { accountId: 1, accountType: 1 as const, schoolId: null, amount: 335 },
      { accountId: 2, accountType: 2 as const, schoolId: null, amount: 330 },
      { accountId: 3, accountType: 3 as const, schoolId: 9, amount: 336 },
    ];
    const taken = new Map<number, number>();
    let refunded = 0;
    for (const part of [1, 333, 7, 660]) {
      for (const [account, amount] of reversalOf(legs, 1001, refunded, part)) taken.set(account, (taken.get(account) ?? 0) + amount);
      refunded += part;
    }
    expect(Object.fromEntries(taken)).toEqual({ 1: 335, 2: 330, 3: 336 });
  });
});

describe('POST /api/ServiceConfig/Add', () => {
  it('refuses split rules whose shares do not add up to 100, on the rule field', async () => {
    const schoolId = await schoolLike(t, agent1School);
    const refused = await post(admin, '/api/ServiceConfig/Add', { schoolId, mode: 1, splitRules: [{ effectiveFrom: '2026-01-01', companyPercent: 50, agentPercent: 30, schoolPercent: 30 }] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().data.errors).toEqual([expect.objectContaining({ path: 'splitRules.0.companyPercent' })]);
  });
});

describe('recordPayment', () => {
  it('keeps the rule in force on the paid day and posts legs summing to the amount', async () => {
    const schoolId = await schoolWithRules([
      { effectiveFrom: '2026-01-01', companyPercent: 50, agentPercent: 30, schoolPercent: 20 },
      { effectiveFrom: '2026-03-01', companyPercent: 40, agentPercent: 40, schoolPercent: 20 },
    ]);
    const before = await pay(schoolId, 999, '2025-12-31T10:00:00+08:00');
    expect(before.payment).toMatchObject({ companyPercent: 100, agentPercent: 0, schoolPercent: 0 });
    const january = await pay(schoolId, 999, '2026-02-28T23:59:00+08:00');
    expect(january.payment).toMatchObject({ companyPercent: 50, agentPercent: 30, schoolPercent: 20 });
    expect(await legsOf(january.payment.id)).toEqual([
      [1, 501],
      [2, 299],
      [3, 199],
    ]);
    // Midnight in Shanghai is still the previous day in UTC: the business day decides.
    const march = await pay(schoolId, 1000, '2026-03-01T00:10:00+08:00');
    expect(march.payment).toMatchObject({ companyPercent: 40, agentPercent: 40, schoolPercent: 20 });
  });

  it('stores a retried notification once', async () => {
    const tradeNo = `T${unique()}`;
    // A school without a service config: the company keeps the whole payment.
    const schoolId = await schoolLike(t, agent1School);
    const first = await pay(schoolId, 500, '2026-04-01T09:00:00+08:00', tradeNo);
    const again = await pay(schoolId, 500, '2026-04-01T09:00:00+08:00', tradeNo);
    expect(again).toMatchObject({ isNew: false, payment: { id: first.payment.id } });
    expect(await legsOf(first.payment.id)).toEqual([[1, 500]]);
  });

  it('posts many payments to the same accounts at once, each once, without a deadlock', async () => {
    // Each entry's foreign key holds its account's KEY SHARE lock before the balance trigger locks the
    // account; a trigger lock that conflicts with it deadlocks two payments to the company account.
    const rules = [{ effectiveFrom: '2026-01-01', companyPercent: 50, agentPercent: 30, schoolPercent: 20 }];
    const schools = [await schoolWithRules(rules), await schoolWithRules(rules)];
    const paid = await Promise.all(Array.from({ length: 12 }, (_, i) => pay(schools[i % 2]!, 1_000, '2026-05-01T09:00:00+08:00')));
    expect(paid.every((entry) => entry.isNew)).toBe(true);
  });
});

describe('postRefundReversal', () => {
  it('reverses in proportion and refuses more than what is left of the payment', async () => {
    const schoolId = await schoolWithRules([{ effectiveFrom: '2026-01-01', companyPercent: 34, agentPercent: 33, schoolPercent: 33 }]);
    const { payment } = await pay(schoolId, 1001, '2026-05-01T10:00:00+08:00');
    await t.db.transaction((tx) => postRefundReversal(tx, payment, 1, 500));
    await expect(t.db.transaction((tx) => postRefundReversal(tx, payment, 2, 502))).rejects.toMatchObject({ fieldProblems: [expect.objectContaining({ path: 'refundAmount' })] });
    await t.db.transaction((tx) => postRefundReversal(tx, payment, 2, 501));
    expect(await legsOf(payment.id)).toEqual([
      [1, 0],
      [2, 0],
      [3, 0],
    ]);
    const [stored] = await rowsOf(sql`select refunded_amount from payment_records where id = ${payment.id}`);
    expect(Number(stored!.refunded_amount)).toBe(1001);
  });

  it('refunds a payment that gave the company nothing, never taking from an account more than its leg', async () => {
    const schoolId = await schoolWithRules([{ effectiveFrom: '2026-01-01', companyPercent: 0, agentPercent: 30, schoolPercent: 70 }]);
    const { payment } = await pay(schoolId, 1000, '2026-05-02T10:00:00+08:00');
    expect(await legsOf(payment.id)).toEqual([
      [2, 300],
      [3, 700],
    ]);
    // 0.3 and 0.7 fen: the floors leave one fen over, which must not come from the company's empty leg.
    await t.db.transaction((tx) => postRefundReversal(tx, payment, 1, 1));
    const reversed = await rowsOf(sql`select account_type as type, amount from agent_fund_entries where payment_id = ${payment.id} and kind = 2 and amount <> 0`);
    expect(reversed.map((row) => [Number(row.type), Number(row.amount)])).toEqual([[3, -1]]);
    await t.db.transaction((tx) => postRefundReversal(tx, payment, 2, 333));
    await t.db.transaction((tx) => postRefundReversal(tx, payment, 3, 666));
    expect(await legsOf(payment.id)).toEqual([
      [2, 0],
      [3, 0],
    ]);
  });
});

describe('the ledger itself', () => {
  it('refuses to change or delete an entry, or to write a balance', async () => {
    await pay(agent1School, 300, '2026-04-02T09:00:00+08:00');
    await expect(t.db.execute(sql`update agent_fund_entries set amount = amount + 1`)).rejects.toThrow();
    await expect(t.db.execute(sql`delete from agent_fund_entries`)).rejects.toThrow();
    await expect(t.db.execute(sql`update agent_fund_accounts set balance = balance + 1`)).rejects.toThrow();
  });
});

describe('POST /api/AgentFund/Adjust', () => {
  it('posts an entry with its reason and moves the balance by it', async () => {
    const accountId = await ensureAccount(t.db, FUND_ACCOUNT_SCHOOL, agent1School);
    const [before] = await rowsOf(sql`select balance from agent_fund_accounts where id = ${accountId}`);
    const adjusted = await post(admin, '/api/AgentFund/Adjust', { id: accountId, amount: -250, reason: '线下退款补记' });
    expect(adjusted.statusCode, adjusted.body).toBe(200);
    expect(adjusted.json().data.balance).toBe(Number(before!.balance) - 250);
    const [entry] = await rowsOf(sql`select kind, amount, reason from agent_fund_entries where id = ${adjusted.json().data.entryId}`);
    expect(entry).toMatchObject({ kind: 3, reason: '线下退款补记' });
    expect((await post(admin, '/api/AgentFund/Adjust', { id: accountId, amount: 0, reason: 'x' })).statusCode).toBe(400);
    expect((await post(admin, '/api/AgentFund/Adjust', { id: accountId, amount: 10 })).statusCode).toBe(400);
  });

  it('leaves the company account to company staff', async () => {
    const companyAccount = await ensureAccount(t.db, FUND_ACCOUNT_COMPANY);
    expect((await post(agent1, '/api/AgentFund/Adjust', { id: companyAccount, amount: 10, reason: 'x' })).statusCode).toBe(404);
  });
});

describe('AgentFund and AgentFundEntry within an agent', () => {
  it("show agent1 and child1 their own account and their school's, with entries; never agent2's or the company's", async () => {
    const schoolId = await schoolWithRules([{ effectiveFrom: '2026-01-01', companyPercent: 50, agentPercent: 30, schoolPercent: 20 }]);
    const paidAt = new Date(t.clock.now().getTime() - 60_000).toISOString();
    const { payment } = await pay(schoolId, 1000, paidAt);
    const [agent1Id, agent2Id] = await Promise.all([userIdOf(t, 'agent1'), userIdOf(t, 'agent2')]);
    const own = await ensureAccount(t.db, FUND_ACCOUNT_AGENT, agent1Id);
    const school = await ensureAccount(t.db, FUND_ACCOUNT_SCHOOL, schoolId);
    const company = await ensureAccount(t.db, FUND_ACCOUNT_COMPANY);
    const other = await ensureAccount(t.db, FUND_ACCOUNT_AGENT, agent2Id);
    const view = 'view=schoolMerchantsManage';
    for (const token of [agent1, child1]) {
      const status = async (id: number) => (await t.injectAs(token, { method: 'GET', url: `/api/AgentFund/Get?id=${id}&${view}` })).statusCode;
      expect([await status(own), await status(school), await status(other), await status(company)]).toEqual([200, 200, 404, 404]);
      const accounts = (await post(token, `/api/AgentFund/Search?${view}`, { pageIndex: 1, pageSize: 200 })).json().data.items.map((row: { id: number }) => row.id);
      expect(accounts).toEqual(expect.arrayContaining([own, school]));
      expect(accounts).not.toContain(other);
      expect(accounts).not.toContain(company);
      const entries = (await post(token, `/api/AgentFundEntry/Search?${view}`, { pageSize: 50, paymentId: payment.id })).json().data.items;
      expect(entries.map((row: { accountId: number }) => row.accountId).sort()).toEqual([own, school].sort());
    }
    // agent2 reads none of it, and reading is all agent1 gains: its own account stays the company's to adjust or edit.
    expect((await t.injectAs(agent2, { method: 'GET', url: `/api/AgentFund/Get?id=${own}&${view}` })).statusCode).toBe(404);
    expect((await post(agent2, `/api/AgentFundEntry/Search?${view}`, { pageSize: 50, paymentId: payment.id })).json().data.items).toEqual([]);
    expect((await post(agent1, `/api/AgentFund/Adjust?${view}`, { id: own, amount: 10, reason: '自行调整' })).statusCode).toBe(404);
    const [row] = await rowsOf(sql`select version from agent_fund_accounts where id = ${own}`);
    expect((await post(agent1, `/api/AgentFund/Update?${view}`, { id: own, version: Number(row!.version), remark: '改' })).statusCode).toBe(404);
    expect((await t.injectAs(agent1, { method: 'POST', url: `/api/AgentFund/BatchDelete?${view}`, payload: [own] })).statusCode).toBe(404);
  });
});

describe('PaymentRecord', () => {
  it('hides money from callers with hideAmountColumns in Search, Get and Export', async () => {
    const { payment } = await pay(agent1School, 4321, new Date(Date.now() - 60_000).toISOString());
    const agent1Id = await userIdOf(t, 'agent1');
    await setSetting(t.db, probesUserKey(agent1Id), { hideAmountColumns: true });
    try {
      const page = (await post(agent1, '/api/PaymentRecord/Search', { pageIndex: 1, pageSize: 50 })).json().data;
      const row = page.items.find((item: { id: number }) => item.id === payment.id);
      expect(row).toMatchObject({ outTradeNo: payment.outTradeNo });
      expect(row).not.toHaveProperty('amount');
      expect(row).not.toHaveProperty('refundedAmount');
      const got = (await t.injectAs(agent1, { method: 'GET', url: `/api/PaymentRecord/Get?id=${payment.id}` })).json().data;
      expect(got).not.toHaveProperty('amount');
      const sheet = await readWorkbook(await t.injectAs(agent1, { method: 'GET', url: '/api/PaymentRecord/Export?lang=en' }));
      expect((sheet.getRow(1).values as unknown[]).slice(1)).not.toContain(PaymentRecord.fields.amount.label.en);
    } finally {
      await setSetting(t.db, probesUserKey(agent1Id), {});
    }
    const shown = (await t.injectAs(agent1, { method: 'GET', url: `/api/PaymentRecord/Get?id=${payment.id}` })).json().data;
    expect(shown.amount).toBe(4321);
  });

  it("shows agent2 none of agent1's payments", async () => {
    const { payment } = await pay(agent1School, 777, new Date(Date.now() - 60_000).toISOString());
    const page = (await post(agent2, '/api/PaymentRecord/Search', { pageIndex: 1, pageSize: 200 })).json().data;
    const agent1Schools = new Set(await schoolIdsOf(t, 'agent1'));
    expect(page.items.filter((item: { schoolId: number }) => agent1Schools.has(item.schoolId))).toEqual([]);
    expect((await t.injectAs(agent2, { method: 'GET', url: `/api/PaymentRecord/Get?id=${payment.id}` })).statusCode).toBe(404);
  });
});

describe('GET /api/Home/GetBadgeCounts', () => {
  it('counts the schools in scope with a service config but no split rule', async () => {
    const countsOf = async (token: string) => (await t.injectAs(token, { method: 'GET', url: '/api/Home/GetBadgeCounts' })).json().data;
    const unset = async (agentLogin: string) =>
      Number(
        (
          await rowsOf(sql`select count(*)::int as n from service_configs c join schools s on s.id = c.school_id
            where s.agent_id = ${await userIdOf(t, agentLogin)} and not exists (select 1 from service_config_split_rules r where r.service_config_id = c.id)`)
        )[0]!.n,
      );
    // Demo data: each agent's last school has a config without rules.
    expect((await countsOf(agent2)).splitRuleUnset).toBe(1);
    expect((await countsOf(agent1)).splitRuleUnset).toBe(await unset('agent1'));
    expect((await countsOf(admin)).splitRuleUnset).toBeGreaterThanOrEqual(2);
  });
});
