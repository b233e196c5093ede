/**
 * The app-use rollups the job keeps from a batch (issue 31): after several runs over events spread
 * across weeks and months — some of them older than their parent's first day, one parent reported at
 * two schools — the per-agent day rollups, the per-period activity and the month's composition each
 * equal a direct count over the raw log, and stay so when a school changes agent. The statistics that
 * read the per-agent rollups answer the log's counts for the company and for an agent's schools only.
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rollUpAllAppUse } from '../../src/parents/app-use.js';
import { appUseEvents } from '../../src/db/schema/index.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { schoolIdsOf, userIdOf } from '../resources/fixtures.js';

let t: TestApp;
let admin: string;
let agent1: string;
let agent1Id: number;
let agent2Id: number;

type Row = Record<string, unknown>;
const rows = async (query: ReturnType<typeof sql>) => ((await t.db.execute(query)) as unknown as { rows: Row[] }).rows;
/** Rows keyed by their key columns (as text), with the measures as numbers. */
const keyed = (items: Row[], keys: string[], measures: string[]) =>
  Object.fromEntries(items.map((item) => [keys.map((k) => String(item[k])).join('|'), measures.map((m) => Number(item[m]))]));

const DAY_MS = 86_400_000;
const dayOf = (daysAgo: number) => new Date(t.clock.now().getTime() - daysAgo * DAY_MS + 8 * 3_600_000).toISOString().slice(0, 10);
const FUNCTIONS = ['inbox', 'services', 'mall', 'recognitions'];

interface Actor {
  parentId: number;
  schoolId: number;
}

/** Deterministic events of the actors between `fromDaysAgo` and `toDaysAgo`, one in four a session. */
function eventsOf(actors: Actor[], count: number, fromDaysAgo: number, toDaysAgo: number, seed: number) {
  const span = fromDaysAgo - toDaysAgo + 1;
  return Array.from({ length: count }, (_, i) => {
    const n = i + seed;
    const actor = actors[(n * 7) % actors.length]!;
    const daysAgo = toDaysAgo + ((n * 13) % span);
    const at = new Date(t.clock.now().getTime() - daysAgo * DAY_MS - ((n * 37) % 600) * 60_000);
    const common = { parentId: actor.parentId, schoolId: actor.schoolId, sessionId: null, occurredAt: at, createdAt: new Date(t.clock.now().getTime() - 60_000) };
    return n % 4 === 0
      ? { ...common, kind: 1, osType: 1 + (n % 2), osVersion: n % 2 === 0 ? '14' : '17.4', appType: 1, appVersion: ['3.1.0', '3.2.0'][n % 3 === 0 ? 0 : 1]!, deviceModel: 'Test' }
      : { ...common, kind: 2, functionCode: FUNCTIONS[(n * 5) % FUNCTIONS.length]! };
  });
}

/** The job's runs, a few events each, so the batches cut through days, weeks and parents. */
const rollUp = () => rollUpAllAppUse(t.db, new Date(t.clock.now().getTime() + 60_000), 23);

const eventDay = sql`(e.occurred_at at time zone 'Asia/Shanghai')::date`;

async function expectAgentRollupsToMatchTheLog(): Promise<void> {
  const functions = await rows(sql`select day::text as day, agent_id, function_code, uses, parents from app_use_agent_function_days where (uses, parents) <> (0, 0)`);
  const directFunctions = await rows(sql`select f.day::text as day, coalesce(s.agent_id, 0) as agent_id, f.function_code, sum(f.uses)::int as uses, sum(f.parents)::int as parents
    from (select e.school_id, ${eventDay} as day, e.function_code, count(*) as uses, count(distinct e.parent_id) as parents
          from app_use_events e where e.kind = 2 group by 1, 2, 3) f
    left join schools s on s.id = f.school_id group by 1, 2, 3`);
  expect(keyed(functions, ['day', 'agent_id', 'function_code'], ['uses', 'parents'])).toEqual(keyed(directFunctions, ['day', 'agent_id', 'function_code'], ['uses', 'parents']));
  expect(directFunctions.length).toBeGreaterThan(20);

  const versions = await rows(sql`select day::text as day, agent_id, os_type, os_version, app_type, app_version, sessions from app_use_agent_version_days where sessions <> 0`);
  const directVersions = await rows(sql`select ${eventDay}::text as day, coalesce(s.agent_id, 0) as agent_id, e.os_type, e.os_version, e.app_type, e.app_version, count(*)::int as sessions
    from app_use_events e left join schools s on s.id = e.school_id where e.kind = 1 group by 1, 2, 3, 4, 5, 6`);
  const versionKey = ['day', 'agent_id', 'os_type', 'os_version', 'app_type', 'app_version'];
  expect(keyed(versions, versionKey, ['sessions'])).toEqual(keyed(directVersions, versionKey, ['sessions']));
}

async function expectParentRollupsToMatchTheLog(): Promise<void> {
  const activity = await rows(sql`select grain, school_id, period::text as period, active, new_parents from app_use_activity`);
  const directActivity = await rows(sql`with e as (select e.school_id, e.parent_id, ${eventDay} as day from app_use_events e),
      f as (select parent_id, min(day) as first_day from e group by 1),
      p as (select distinct g.grain, e.school_id, e.parent_id,
              case g.grain when 'day' then e.day else date_trunc(g.grain, e.day::timestamp)::date end as period
            from e cross join (values ('day'), ('week'), ('month')) g(grain))
    select p.grain, p.school_id, p.period::text as period, count(*)::int as active,
      count(*) filter (where f.first_day >= p.period and f.first_day < (p.period + case p.grain when 'day' then interval '1 day' when 'week' then interval '7 days' else interval '1 month' end)::date)::int as new_parents
    from p join f on f.parent_id = p.parent_id group by 1, 2, 3`);
  expect(keyed(activity, ['grain', 'school_id', 'period'], ['active', 'new_parents'])).toEqual(keyed(directActivity, ['grain', 'school_id', 'period'], ['active', 'new_parents']));

  // Nobody's relation or class changes here, so each parent's last day of the month carries its relation and grade now.
  const composition = await rows(sql`select school_id, month::text as month, relation, grade, active, new_parents from app_use_composition`);
  const directComposition = await rows(sql`with e as (select e.school_id, e.parent_id, ${eventDay} as day from app_use_events e),
      f as (select parent_id, min(day) as first_day from e group by 1),
      m as (select distinct school_id, parent_id, date_trunc('month', day::timestamp)::date as month from e)
    select m.school_id, m.month::text as month, coalesce(p.relation, 0) as relation,
      coalesce((select min(c.grade) from parent_students ps join students s on s.id = ps.student_id join school_classes c on c.id = s.class_id where ps.parent_id = m.parent_id), 0) as grade,
      count(*)::int as active, count(*) filter (where date_trunc('month', f.first_day::timestamp)::date = m.month)::int as new_parents
    from m join f on f.parent_id = m.parent_id left join parents p on p.id = m.parent_id group by 1, 2, 3, 4`);
  const compositionKey = ['school_id', 'month', 'relation', 'grade'];
  expect(keyed(composition, compositionKey, ['active', 'new_parents'])).toEqual(keyed(directComposition, compositionKey, ['active', 'new_parents']));
}

const summary = async (token: string, name: string, query: string) => {
  const response = await t.injectAs(token, { method: 'GET', url: `/api/${name}/GetSummary?${query}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as { items: Row[]; totals: Record<string, number> };
};

let movedSchool: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.loginAs('admin');
  agent1 = await t.loginAs('agent1');
  agent1Id = await userIdOf(t, 'agent1');
  agent2Id = await userIdOf(t, 'agent2');
  const agent1Schools = await schoolIdsOf(t, 'agent1');
  const parents = (await rows(sql`select id, school_id from parents where school_id is not null order by id`)).map((row) => ({ parentId: Number(row.id), schoolId: Number(row.school_id) }));
  const inside = parents.filter((p) => agent1Schools.includes(p.schoolId));
  const outside = parents.filter((p) => !agent1Schools.includes(p.schoolId));
  const insideSchools = [...new Set(inside.map((p) => p.schoolId))];
  expect(insideSchools.length).toBeGreaterThan(1);
  movedSchool = insideSchools[1]!;
  const actors: Actor[] = [
    ...insideSchools.slice(0, 2).flatMap((schoolId) => inside.filter((p) => p.schoolId === schoolId).slice(0, 2)),
    ...outside.slice(0, 3),
  ];
  // The first parent also reported at another school (as after a move): counted at each.
  actors.push({ parentId: actors[0]!.parentId, schoolId: outside[0]!.schoolId });

  // Recent weeks first; then events up to 45 days old, which move first days back over week and month ends.
  await t.db.insert(appUseEvents).values(eventsOf(actors, 160, 20, 0, 1));
  expect(await rollUp()).toBeGreaterThan(100);
  await t.db.insert(appUseEvents).values(eventsOf(actors, 140, 45, 15, 500));
  await rollUp();
  await t.db.insert(appUseEvents).values(eventsOf(actors.slice(2), 60, 33, 0, 900));
  await rollUp();
});
afterAll(() => t.close());

describe('the rollups after several runs of the job', () => {
  it('per agent: function uses, parents and sessions per day equal the log summed by the school\'s agent', expectAgentRollupsToMatchTheLog);
  it('per period: active and new parents per school and day, week and month, and the month\'s composition, equal the log', expectParentRollupsToMatchTheLog);
});

describe('the statistics that read the per-agent rollups', () => {
  // A range from a Wednesday mid-month to a Sunday of the next: partial weeks and months at both ends.
  const range = () => `dayFrom=${dayOf(40)}&dayTo=${dayOf(8)}`;
  const inRange = () => sql`${eventDay} between ${dayOf(40)}::date and ${dayOf(8)}::date`;

  it.each(['week', 'month'] as const)('FunctionTrends by %s equals the log for the company and for agent1', async (grain) => {
    const unit = sql.raw(`'${grain}'`);
    const direct = async (agentId?: number) =>
      rows(sql`select to_char(date_trunc(${unit}, ${eventDay}::timestamp), 'YYYY-MM-DD') as period, e.function_code as "functionCode", count(*)::int as uses
        from app_use_events e join schools s on s.id = e.school_id
        where e.kind = 2 and ${inRange()} ${agentId === undefined ? sql`` : sql`and s.agent_id = ${agentId}`} group by 1, 2`);
    const company = await summary(admin, 'FunctionTrends', `${range()}&grain=${grain}`);
    const companyDirect = await direct();
    expect(keyed(company.items, ['period', 'functionCode'], ['uses'])).toEqual(keyed(companyDirect, ['period', 'functionCode'], ['uses']));
    expect(new Set(companyDirect.map((row) => row.period)).size).toBeGreaterThan(grain === 'week' ? 4 : 1);
    const agent = await summary(agent1, 'FunctionTrends', `${range()}&grain=${grain}`);
    const agentDirect = await direct(agent1Id);
    expect(keyed(agent.items, ['period', 'functionCode'], ['uses'])).toEqual(keyed(agentDirect, ['period', 'functionCode'], ['uses']));
    expect(Number(agent.totals.uses)).toBeLessThan(Number(company.totals.uses));
  });

  it("UaStatistics and FrequentStatistics of agent1 count its schools' events only; a school filter reads per school", async () => {
    const schools = sql`(select id from schools where agent_id = ${agent1Id})`;
    const ua = await summary(agent1, 'UaStatistics', `${range()}&groupBy=osType,osVersion,appVersion`);
    const uaDirect = await rows(sql`select os_type as "osType", os_version as "osVersion", app_version as "appVersion", count(*)::int as sessions
      from app_use_events e where kind = 1 and school_id in ${schools} and ${inRange()} group by 1, 2, 3`);
    expect(keyed(ua.items, ['osType', 'osVersion', 'appVersion'], ['sessions'])).toEqual(keyed(uaDirect, ['osType', 'osVersion', 'appVersion'], ['sessions']));
    const frequent = await summary(agent1, 'FrequentStatistics', range());
    const [uses] = await rows(sql`select count(*)::int as n from app_use_events e where kind = 2 and school_id in ${schools} and ${inRange()}`);
    expect(frequent.totals.uses).toBe(Number(uses!.n));
    // The company filtered on agent1 reads the same rows; on one school, that school's.
    const filtered = await summary(admin, 'FrequentStatistics', `${range()}&agentId=${agent1Id}`);
    expect(filtered.totals.uses).toBe(Number(uses!.n));
    const oneSchool = await summary(admin, 'FrequentStatistics', `${range()}&schoolId=${movedSchool}`);
    const [schoolUses] = await rows(sql`select count(*)::int as n from app_use_events e where kind = 2 and school_id = ${movedSchool} and ${inRange()}`);
    expect(oneSchool.totals.uses).toBe(Number(schoolUses!.n));
    expect(Number(schoolUses!.n)).toBeGreaterThan(0);
  });

  it('a school that changes agent takes its app use along', async () => {
    const before = await summary(agent1, 'FrequentStatistics', range());
    const [moved] = await rows(sql`select count(*)::int as n from app_use_events e where kind = 2 and school_id = ${movedSchool} and ${inRange()}`);
    await t.db.execute(sql`update schools set agent_id = ${agent2Id} where id = ${movedSchool}`);
    await expectAgentRollupsToMatchTheLog();
    const after = await summary(agent1, 'FrequentStatistics', range());
    expect(after.totals.uses).toBe(Number(before.totals.uses) - Number(moved!.n));
    // New events at the moved school now count under agent2.
    await t.db.insert(appUseEvents).values(eventsOf([{ parentId: Number((await rows(sql`select id from parents where school_id = ${movedSchool} limit 1`))[0]!.id), schoolId: movedSchool }], 12, 3, 0, 1300));
    await rollUp();
    await expectAgentRollupsToMatchTheLog();
    await expectParentRollupsToMatchTheLog();
    await t.db.execute(sql`update schools set agent_id = ${agent1Id} where id = ${movedSchool}`);
    await expectAgentRollupsToMatchTheLog();
  });

  it.skipIf(process.env.TEST_DB !== 'postgres')('waits for a school changing agent before it writes a rollup row, then counts under the new agent', async () => {
    const [parent] = await rows(sql`select id from parents where school_id = ${movedSchool} limit 1`);
    await t.db.insert(appUseEvents).values(eventsOf([{ parentId: Number(parent!.id), schoolId: movedSchool }], 12, 3, 0, 1700));
    const change = new pg.Client({ connectionString: t.env.DATABASE_URL });
    await change.connect();
    try {
      await change.query('begin');
      await change.query('update schools set agent_id = $1 where id = $2', [agent2Id, movedSchool]);
      const run = rollUp();
      const waiting = async () => (await rows(sql`select pid from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`)).map((row) => Number(row.pid));
      await expect.poll(waiting, { timeout: 10_000 }).toHaveLength(1);
      const [runPid] = await waiting();
      // The waiting run holds no rollup table yet: the change's trigger, which writes the per-agent
      // rollups, would otherwise wait for the run while the run waits for the school (a deadlock).
      const held = await rows(sql`select distinct c.relname from pg_locks l join pg_class c on c.oid = l.relation where l.pid = ${runPid} and c.relname like 'app_use%days'`);
      expect(held).toEqual([]);
      await change.query('commit');
      await run;
    } finally {
      await change.end();
    }
    await expectAgentRollupsToMatchTheLog();
    await expectParentRollupsToMatchTheLog();
    await t.db.execute(sql`update schools set agent_id = ${agent1Id} where id = ${movedSchool}`);
  });
});
