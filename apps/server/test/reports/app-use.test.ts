/**
 * App use (issue 31): parents report sessions and function use through the channel; the rollup job
 * reads them from its watermark; each of the six statistics equals a direct count over the raw rows
 * (app_use_events, parents, payment_records), for the company and within an agent's schools.
 */
import { APP_PATHS, APP_USE_CALLS_PER_MINUTE } from '@campus/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countAppUsers, rollUpAllAppUse, rollUpAppUse } from '../../src/parents/app-use.js';
import { recordPayment } from '../../src/finance/payments.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { asParent, demoParents, setParentPassword, signInParent, type DemoParent } from '../app-channel/support.js';
import { schoolIdsOf, unique } from '../resources/fixtures.js';

let t: TestApp;
let admin: string;
let agent1: string;
let agent1Schools: number[];
const signedIn: { parent: DemoParent; token: string }[] = [];

type Row = Record<string, unknown>;
type Answer = { items: Row[]; totals: Record<string, number> };
const rows = async (query: ReturnType<typeof sql>) => ((await t.db.execute(query)) as unknown as { rows: Row[] }).rows;

const DAY_MS = 86_400_000;
/** The business day (Asia/Shanghai) `daysAgo` days before the clock's now. */
const dayOf = (daysAgo: number) => new Date(t.clock.now().getTime() - daysAgo * DAY_MS + 8 * 3_600_000).toISOString().slice(0, 10);
/** `minutes` before that time on the day `daysAgo` days back: never in the future. */
const at = (daysAgo: number, minutes = 0) => new Date(t.clock.now().getTime() - daysAgo * DAY_MS - minutes * 60_000).toISOString();

const session = (daysAgo: number, os: 'android' | 'ios', appVersion: string, minutes = 0) => ({
  kind: 'session' as const,
  at: at(daysAgo, minutes),
  os,
  osVersion: os === 'ios' ? '17.4' : '14',
  appType: 'parent' as const,
  appVersion,
  deviceModel: os === 'ios' ? 'iPhone 15' : 'HUAWEI P60',
});
const use = (daysAgo: number, code: string, minutes = 1) => ({ kind: 'function' as const, at: at(daysAgo, minutes), code });

let keyCount = 0;
const report = (token: string, events: unknown[], key = `use-${unique()}-${(keyCount += 1)}`) =>
  asParent(t, token, { method: 'POST', url: APP_PATHS.reportUse, payload: { events }, headers: { 'idempotency-key': key } });

/** The rollups brought up to date as the job would, a minute later (past its commit lag). */
async function rollUp(): Promise<void> {
  const later = new Date(t.clock.now().getTime() + 60_000);
  await rollUpAllAppUse(t.db, later);
  await countAppUsers(t.db, later);
}

const summary = async (token: string, name: string, query: string): Promise<Answer> => {
  const response = await t.injectAs(token, { method: 'GET', url: `/api/${name}/GetSummary?${query}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as Answer;
};

/** A report's groups keyed by their dimensions, with the measures asked. */
const keyed = (items: Row[], dimensions: string[], measures: string[]) =>
  Object.fromEntries(items.map((item) => [dimensions.map((d) => String(item[d])).join('|'), measures.map((m) => Number(item[m]))]));

const eventDay = sql`(e.occurred_at at time zone 'Asia/Shanghai')::date`;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.loginAs('admin');
  agent1 = await t.loginAs('agent1');
  agent1Schools = await schoolIdsOf(t, 'agent1');
  const parents = await demoParents(t);
  // Parents of agent1's schools and of others', so the agent's scope has something to leave out.
  const inside = parents.filter((p) => agent1Schools.includes(p.schoolId)).slice(0, 3);
  const outside = parents.filter((p) => !agent1Schools.includes(p.schoolId)).slice(0, 3);
  for (const parent of [...inside, ...outside]) {
    await setParentPassword(t, parent.id);
    signedIn.push({ parent, token: await signInParent(t, parent.phoneNum) });
  }
  // Week after week: sessions on two OSes and versions, tiles used, one parent coming back after days.
  const plan: [number, unknown[]][] = [
    [0, [session(6, 'android', '3.1.0'), use(6, 'inbox'), use(6, 'services', 2), session(1, 'android', '3.2.0'), use(1, 'inbox')]],
    [1, [session(5, 'ios', '3.2.0'), use(5, 'mall'), use(5, 'mall', 3), session(0, 'ios', '3.2.0'), use(0, 'recognitions')]],
    [2, [session(2, 'android', '3.2.0'), use(2, 'inbox'), use(2, 'inbox', 5)]],
    [3, [session(6, 'ios', '3.1.0'), use(6, 'services')]],
    [4, [session(3, 'android', '3.2.0'), use(3, 'recognitions'), session(0, 'android', '3.2.0'), use(0, 'inbox')]],
    [5, [session(1, 'ios', '3.2.0')]],
  ];
  for (const [i, events] of plan) {
    const response = await report(signedIn[i]!.token, events);
    expect(response.statusCode, response.body).toBe(200);
  }
  // One paying parent inside agent1's schools.
  const payer = signedIn[0]!.parent;
  await recordPayment(t.db, { schoolId: payer.schoolId, parentId: payer.id, studentId: payer.childIds[0], amount: 1_500, channel: 'wechat', tradeNo: `T${unique()}`, paidAt: t.clock.now() });
  await rollUp();
});
afterAll(() => t.close());

describe('POST /api/App/ReportUse', () => {
  it('stores a batch once per Idempotency-Key, refuses the key with another body, and refuses old events', async () => {
    const { token, parent } = signedIn[0]!;
    const count = async () => Number((await rows(sql`select count(*)::int as n from app_use_events where parent_id = ${parent.id}`))[0]!.n);
    const before = await count();
    const key = `batch-${unique()}`;
    const events = [use(0, 'help', 7)];
    const first = await report(token, events, key);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data).toEqual({ accepted: 1 });
    const replay = await report(token, events, key);
    expect(replay.json().data).toEqual({ accepted: 1 });
    expect(await count()).toBe(before + 1);
    const other = await report(token, [use(0, 'help', 8)], key);
    expect(other.statusCode).toBe(409);
    const old = await report(token, [use(8, 'help')]);
    expect(old.statusCode).toBe(400);
    expect(old.json().data.errors[0].path).toBe('events.0.at');
    expect(await count()).toBe(before + 1);
    const noKey = await t.app.inject({ method: 'POST', url: APP_PATHS.reportUse, payload: { events }, headers: { authorization: `Bearer ${token}` } });
    expect(noKey.statusCode).toBe(400);
    const console = await t.injectAs(admin, { method: 'POST', url: APP_PATHS.reportUse, payload: { events }, headers: { 'idempotency-key': `k-${unique()}` } });
    expect(console.statusCode).toBe(401);
  });

  it(`answers 429 beyond ${APP_USE_CALLS_PER_MINUTE} calls per session and minute, and accepts again the next minute`, async () => {
    const { parent } = signedIn[5]!;
    const token = await signInParent(t, parent.phoneNum);
    // The clock stands still: every call falls in the same minute unless the minute has just begun.
    const statuses: number[] = [];
    for (let i = 0; i <= APP_USE_CALLS_PER_MINUTE; i += 1) statuses.push((await report(token, [use(0, 'help', 9)])).statusCode);
    expect(statuses.slice(0, APP_USE_CALLS_PER_MINUTE).every((status) => status === 200)).toBe(true);
    expect(statuses[APP_USE_CALLS_PER_MINUTE]).toBe(429);
    // Another session of the same parent has its own budget.
    const other = await signInParent(t, parent.phoneNum);
    expect((await report(other, [use(0, 'help', 9)])).statusCode).toBe(200);
    t.clock.advance(60_000);
    expect((await report(token, [use(0, 'help', 9)])).statusCode).toBe(200);
    await rollUp();
  });
});

describe('the rollup job', () => {
  it('reads only the events past its watermark, and recounts the days a late event touches', async () => {
    const later = new Date(t.clock.now().getTime() + 60_000);
    expect((await rollUpAppUse(t.db, later)).events).toBe(0);
    // An event kept offline four days: its parent's first day moves back.
    const { token } = signedIn[2]!;
    expect((await report(token, [session(4, 'android', '3.0.0'), use(4, 'inbox')])).statusCode).toBe(200);
    // Too young to be read yet (its insert may not have committed everywhere): left for the next run.
    expect((await rollUpAppUse(t.db, t.clock.now())).events).toBe(0);
    const run = await rollUpAppUse(t.db, later);
    expect(run.events).toBe(2);
    await countAppUsers(t.db, later);
  });
});

describe('each statistic equals a direct count over the raw rows', () => {
  const range = () => `dayFrom=${dayOf(7)}&dayTo=${dayOf(0)}`;
  const inRange = () => sql`${eventDay} between ${dayOf(7)}::date and ${dayOf(0)}::date`;

  it('UaStatistics: sessions per OS, OS version, app and app version', async () => {
    const answer = await summary(admin, 'UaStatistics', `${range()}&groupBy=osType,osVersion,appType,appVersion`);
    const direct = await rows(sql`select os_type as "osType", os_version as "osVersion", app_type as "appType", app_version as "appVersion", count(*)::int as sessions
      from app_use_events e where kind = 1 and ${inRange()} group by 1, 2, 3, 4`);
    const dims = ['osType', 'osVersion', 'appType', 'appVersion'];
    expect(keyed(answer.items, dims, ['sessions'])).toEqual(keyed(direct, dims, ['sessions']));
    expect(direct.length).toBeGreaterThan(2);
  });

  it.each(['day', 'week', 'month'] as const)('UserActivity by %s: distinct active, new and returning parents', async (grain) => {
    const answer = await summary(admin, 'UserActivity', `dayFrom=${dayOf(7)}&dayTo=${dayOf(0)}&grain=${grain}`);
    const unit = sql.raw(`'${grain}'`);
    const period = sql`to_char(date_trunc(${unit}, ${eventDay}::timestamp), 'YYYY-MM-DD')`;
    // A week or month starting before the range counts whole: read every event of those periods.
    const direct = await rows(sql`with f as (select parent_id, min(${eventDay}) as first_day from app_use_events e group by 1),
      a as (select distinct ${period} as period, e.parent_id from app_use_events e
            where ${eventDay} >= date_trunc(${unit}, ${dayOf(7)}::date::timestamp)::date and ${eventDay} <= ${dayOf(0)}::date)
      select a.period, count(*)::int as active,
        count(*) filter (where to_char(date_trunc(${unit}, f.first_day::timestamp), 'YYYY-MM-DD') = a.period)::int as "newParents"
      from a join f on f.parent_id = a.parent_id group by 1`);
    const withReturning = direct.map((row) => ({ ...row, returning: Number(row.active) - Number(row.newParents) }));
    expect(keyed(answer.items, ['period'], ['active', 'newParents', 'returning'])).toEqual(keyed(withReturning, ['period'], ['active', 'newParents', 'returning']));
  });

  it('UserComposition: active parents of the month by relation and youngest child\'s grade', async () => {
    const month = dayOf(0).slice(0, 7);
    const answer = await summary(admin, 'UserComposition', `dayFrom=${month}-01&dayTo=${dayOf(0)}&groupBy=relation,grade`);
    const direct = await rows(sql`select coalesce(p.relation, 0) as relation,
        coalesce((select min(c.grade) from parent_students ps join students s on s.id = ps.student_id join school_classes c on c.id = s.class_id where ps.parent_id = p.id), 0) as grade,
        count(*)::int as active
      from parents p where p.id in (select parent_id from app_use_events e where to_char(${eventDay}, 'YYYY-MM') = ${month}) group by 1, 2`);
    expect(keyed(answer.items, ['relation', 'grade'], ['active'])).toEqual(keyed(direct, ['relation', 'grade'], ['active']));
  });

  it('FrequentStatistics and FunctionTrends: uses and parent-days per function', async () => {
    const direct = await rows(sql`with r as (select function_code, ${eventDay} as day, parent_id from app_use_events e where kind = 2 and ${inRange()})
      select function_code as "functionCode", count(*)::int as uses, (select count(*) from (select distinct d.day, d.parent_id from r d where d.function_code = r.function_code) x)::int as "parentDays"
      from r group by 1`);
    const frequent = await summary(admin, 'FrequentStatistics', range());
    expect(keyed(frequent.items, ['functionCode'], ['uses', 'parentDays'])).toEqual(keyed(direct, ['functionCode'], ['uses', 'parentDays']));
    const trends = await summary(admin, 'FunctionTrends', `${range()}&grain=day`);
    const perDay = await rows(sql`select to_char(${eventDay}, 'YYYY-MM-DD') as period, function_code as "functionCode", count(*)::int as uses
      from app_use_events e where kind = 2 and ${inRange()} group by 1, 2`);
    expect(keyed(trends.items, ['period', 'functionCode'], ['uses'])).toEqual(keyed(perDay, ['period', 'functionCode'], ['uses']));
  });

  it('UserStatistics: registered, activated and paying parents per school', async () => {
    const answer = await summary(admin, 'UserStatistics', 'groupBy=schoolId');
    const direct = await rows(sql`select p.school_id as "schoolId", count(*)::int as registered,
        count(*) filter (where exists (select 1 from app_use_events e where e.parent_id = p.id))::int as activated,
        count(*) filter (where exists (select 1 from payment_records r where r.parent_id = p.id))::int as paying
      from parents p group by 1`);
    expect(keyed(answer.items, ['schoolId'], ['registered', 'activated', 'paying'])).toEqual(keyed(direct, ['schoolId'], ['registered', 'activated', 'paying']));
    expect(answer.totals.paying).toBeGreaterThan(0);
  });
});

describe("an agent's figures cover only its schools", () => {
  it('FrequentStatistics and UserStatistics of agent1 count the rows of its schools only', async () => {
    const schools = sql.join(agent1Schools.map((id) => sql`${id}`), sql`, `);
    const frequent = await summary(agent1, 'FrequentStatistics', `dayFrom=${dayOf(7)}&dayTo=${dayOf(0)}`);
    const [uses] = await rows(sql`select count(*)::int as n from app_use_events e where kind = 2 and school_id in (${schools})
      and ${eventDay} between ${dayOf(7)}::date and ${dayOf(0)}::date`);
    expect(frequent.totals.uses).toBe(Number(uses!.n));
    const [all] = await rows(sql`select count(*)::int as n from app_use_events e where kind = 2 and ${eventDay} between ${dayOf(7)}::date and ${dayOf(0)}::date`);
    expect(Number(all!.n)).toBeGreaterThan(Number(uses!.n));

    const users = await summary(agent1, 'UserStatistics', 'groupBy=schoolId');
    expect(users.items.every((item) => agent1Schools.includes(Number(item.schoolId)))).toBe(true);
    const [registered] = await rows(sql`select count(*)::int as n from parents where school_id in (${schools})`);
    expect(users.totals.registered).toBe(Number(registered!.n));

    const activity = await summary(agent1, 'UserActivity', `dayFrom=${dayOf(7)}&dayTo=${dayOf(0)}&grain=month`);
    const [active] = await rows(sql`select count(distinct parent_id)::int as n from app_use_events e where school_id in (${schools})
      and to_char(${eventDay}, 'YYYY-MM') = ${dayOf(0).slice(0, 7)}`);
    expect(activity.items.find((item) => item.period === `${dayOf(0).slice(0, 7)}-01`)?.active).toBe(Number(active!.n));
  });

  it("a sales account without the page is refused (403), and an agent's export is a workbook", async () => {
    const sales = await t.loginAs('sales1');
    expect((await t.injectAs(sales, { method: 'GET', url: '/api/UserStatistics/GetSummary' })).statusCode).toBe(403);
    const exported = await t.injectAs(agent1, { method: 'GET', url: '/api/UserStatistics/Export' });
    expect(exported.statusCode, exported.body.slice(0, 200)).toBe(200);
    expect(exported.headers['content-type']).toContain('spreadsheetml');
  });
});
