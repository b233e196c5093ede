import { DEFAULT_HEARTBEAT_SECONDS, OFFLINE_AFTER_MISSED_HEARTBEATS, type Overview } from '@campus/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { terminalOfflineSweepJob } from '../../src/terminals/live-intake.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { schoolIdsOf } from '../resources/fixtures.js';
import { event, heartbeat, registerTerminal, sendEvents, type TestTerminal } from './intake-support.js';

type Rows<T> = { rows: T[] };
const OFFLINE_AFTER_MS = OFFLINE_AFTER_MISSED_HEARTBEATS * DEFAULT_HEARTBEAT_SECONDS * 1000;
const HOUR = 3_600_000;

let t: TestApp;
let admin: string;
let agent1Schools: number[];

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.loginAs('admin');
  agent1Schools = await schoolIdsOf(t, 'agent1');
});
afterAll(() => t.close());

const sweep = () => terminalOfflineSweepJob.run(t.app);

async function periodsOf(terminal: TestTerminal) {
  const found = (await t.db.execute(
    sql`select school_id, started_at, ended_at from terminal_offline_periods where terminal_id = ${terminal.id} order by started_at`,
  )) as unknown as Rows<{ school_id: number; started_at: string | Date; ended_at: string | Date | null }>;
  return found.rows.map((row) => ({ schoolId: Number(row.school_id), startedAt: new Date(row.started_at).getTime(), endedAt: row.ended_at === null ? null : new Date(row.ended_at).getTime() }));
}

/** Terminals online at `instant`, counted straight from the rows: heard from by then and in no offline period holding it. */
async function directlyOnlineAt(instant: Date, schoolIds: number[] | null): Promise<{ online: number; existing: number }> {
  const scoped = schoolIds ? sql`t.school_id in (${sql.join(schoolIds.map((id) => sql`${id}`), sql`, `)})` : sql`true`;
  const found = (await t.db.execute(sql`select
      count(*) filter (where t.last_seen_at is not null and coalesce(t.first_seen_at, t.created_at) <= ${instant}
        and not exists (select 1 from terminal_offline_periods p where p.terminal_id = t.id and p.started_at <= ${instant} and (p.ended_at is null or p.ended_at > ${instant}))) as online,
      count(*) filter (where t.created_at <= ${instant}) as existing
    from terminals t where ${scoped}`)) as unknown as Rows<{ online: string; existing: string }>;
  return { online: Number(found.rows[0]!.online), existing: Number(found.rows[0]!.existing) };
}

async function overviewOf(loginName: string): Promise<Overview> {
  const response = await t.injectAs(await t.loginAs(loginName), { method: 'GET', url: '/api/Overview/GetSummary' });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

describe('terminal offline periods', () => {
  it('opens a period at the offline time and closes it at the first call after, once however many sweeps run', async () => {
    const terminal = await registerTerminal(t, admin, agent1Schools[0]!);
    await heartbeat(t, terminal);
    const lastCall = t.clock.now().getTime();
    await sweep();
    expect(await periodsOf(terminal)).toEqual([]);

    t.clock.advance(OFFLINE_AFTER_MS + 5_000);
    await sweep();
    await sweep();
    expect(await periodsOf(terminal)).toEqual([{ schoolId: terminal.schoolId, startedAt: lastCall + OFFLINE_AFTER_MS, endedAt: null }]);

    t.clock.advance(HOUR);
    // Any signed call ends the silence; the heartbeat after it does not move the period's end.
    await sendEvents(t, terminal, [event(t, 1)]);
    const back = t.clock.now().getTime();
    t.clock.advance(DEFAULT_HEARTBEAT_SECONDS * 1000);
    await heartbeat(t, terminal);
    await sweep();
    const [period] = await periodsOf(terminal);
    expect(period).toEqual({ schoolId: terminal.schoolId, startedAt: lastCall + OFFLINE_AFTER_MS, endedAt: back });
    expect(period!.endedAt! - period!.startedAt).toBe(HOUR + 5_000);
  });

  it("gives the Overview yesterday's and last week's devices online and offline, equal to direct counts, for the company and an agent", async () => {
    // A terminal of agent1 offline for three hours a day ago, and one that never called.
    admin = await t.loginAs('admin'); // the clock moved past the first session's idle expiry
    const terminal = await registerTerminal(t, admin, agent1Schools[1]!);
    const silent = await registerTerminal(t, admin, agent1Schools[1]!);
    // Rows are stamped by the database's clock, the calls by the test's: added before any of them, as in life.
    await t.db.execute(sql`update terminals set created_at = ${new Date(t.clock.now().getTime() - HOUR)} where id in (${terminal.id}, ${silent.id})`);
    await heartbeat(t, terminal);
    t.clock.advance(OFFLINE_AFTER_MS);
    await sweep();
    const wentOffline = t.clock.now().getTime();
    t.clock.advance(3 * HOUR);
    await heartbeat(t, terminal);
    await sweep();
    // A day later, "yesterday at this time" lies inside the silence.
    t.clock.advance(24 * HOUR - 2 * HOUR);
    await heartbeat(t, terminal);
    await sweep();
    const yesterday = new Date(t.clock.now().getTime() - 24 * HOUR);
    expect(yesterday.getTime()).toBeGreaterThan(wentOffline);
    expect((await periodsOf(terminal)).some((period) => period.startedAt <= yesterday.getTime() && (period.endedAt ?? Infinity) > yesterday.getTime())).toBe(true);

    for (const [login, schoolIds] of [['admin', null], ['agent1', agent1Schools]] as const) {
      const overview = await overviewOf(login);
      const now = t.clock.now().getTime();
      const [atYesterday, atLastWeek] = [await directlyOnlineAt(new Date(now - 24 * HOUR), schoolIds), await directlyOnlineAt(new Date(now - 7 * 24 * HOUR), schoolIds)];
      expect(overview.figures.devicesOnline, login).toMatchObject({ yesterday: atYesterday.online, lastWeek: atLastWeek.online });
      expect(overview.figures.devicesOffline, login).toMatchObject({ yesterday: atYesterday.existing - atYesterday.online, lastWeek: atLastWeek.existing - atLastWeek.online });
      expect(overview.figures.devicesOnline.today + overview.figures.devicesOffline.today).toBeGreaterThanOrEqual(atYesterday.existing);
    }
    // The silent terminal counts offline yesterday, for its agent as for the company; online today.
    const agent = await overviewOf('agent1');
    const withoutIt = await directlyOnlineAt(new Date(t.clock.now().getTime() - 24 * HOUR), agent1Schools);
    expect(agent.figures.devicesOffline.yesterday).toBe(withoutIt.existing - withoutIt.online);
    expect(agent.figures.devicesOffline.yesterday).toBeGreaterThanOrEqual(2);
    const company = await overviewOf('admin');
    expect(company.figures.devicesOnline.yesterday).toBeGreaterThanOrEqual(agent.figures.devicesOnline.yesterday);
  });
});
