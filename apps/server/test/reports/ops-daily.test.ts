import { DEFAULT_HEARTBEAT_SECONDS, INTAKE_PATHS, OFFLINE_AFTER_MISSED_HEARTBEATS, formatBusinessDate } from '@campus/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { terminalOfflineSweepJob } from '../../src/terminals/live-intake.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { readWorkbook, schoolIdsOf } from '../resources/fixtures.js';
import { event, heartbeat, registerTerminal, sendEvents, signedCall, type TestTerminal } from '../terminals/intake-support.js';

type Row = Record<string, unknown>;
type Rows<T> = { rows: T[] };
const OFFLINE_AFTER_MS = OFFLINE_AFTER_MISSED_HEARTBEATS * DEFAULT_HEARTBEAT_SECONDS * 1000;
const MEASURES = ['offlineDevices', 'offlineMinutes', 'failedRecognitions', 'deviceErrors', 'ticketsOpened', 'ticketsClosed'] as const;

let t: TestApp;
let admin: string;
let agent1: string;
let agent1Schools: number[];
let agent2Schools: number[];
let staffId: number;
/** The own school's tickets opened and closed before the test's (the demo seed makes some). */
let ticketsBefore: { opened: number; closed: number };

const sweep = () => terminalOfflineSweepJob.run(t.app);
const logLine = (serial: number, level: string) => ({ serial, level, module: 'door', message: `line ${serial}`, loggedAt: t.clock.now().toISOString() });

/** What a school's terminal goes through in a day, through the intake as a device makes its calls. */
async function terminalDay(terminal: TestTerminal, silentMinutes: number): Promise<void> {
  await heartbeat(t, terminal);
  // Unknown faces: failed recognitions.
  expect((await sendEvents(t, terminal, [event(t, 1), event(t, 2), event(t, 3)])).statusCode).toBe(200);
  const logs = [logLine(1, 'error'), logLine(2, 'error'), logLine(3, 'info')];
  expect((await signedCall(t, terminal, INTAKE_PATHS.logs, JSON.stringify({ logs }))).statusCode).toBe(200);
  t.clock.advance(OFFLINE_AFTER_MS);
  await sweep();
  t.clock.advance(silentMinutes * 60_000);
  await heartbeat(t, terminal);
  await sweep();
}

async function ticket(terminal: TestTerminal, steps: { verb: string; body?: Row }[]): Promise<void> {
  const added = await t.injectAs(admin, { method: 'POST', url: '/api/MaintenanceTicket/Add', payload: { deviceId: terminal.deviceId, title: '闸机不开', priority: 'normal' } });
  expect(added.statusCode, added.body).toBe(200);
  const id = added.json().data.id as number;
  for (const step of steps) {
    const moved = await t.injectAs(admin, { method: 'POST', url: `/api/MaintenanceTicket/${step.verb}`, payload: { id, ...step.body } });
    expect(moved.statusCode, moved.body).toBe(200);
  }
}

beforeAll(async () => {
  t = await createTestApp();
  [admin, agent1] = await Promise.all([t.loginAs('admin'), t.loginAs('agent1')]);
  [agent1Schools, agent2Schools] = await Promise.all([schoolIdsOf(t, 'agent1'), schoolIdsOf(t, 'agent2')]);
  const staff = (await t.db.execute(sql`select id from users where type = 'company' order by id limit 1`)) as unknown as Rows<{ id: number }>;
  staffId = Number(staff.rows[0]!.id);
  const own = await registerTerminal(t, admin, agent1Schools[0]!);
  const foreign = await registerTerminal(t, admin, agent2Schools[0]!);
  await terminalDay(own, 30);
  await terminalDay(foreign, 90);
  admin = await t.loginAs('admin'); // the clock moved past the first session's idle expiry
  agent1 = await t.loginAs('agent1');
  ticketsBefore = await ticketsOf(agent1Schools[0]!);
  await ticket(own, [{ verb: 'Assign', body: { assigneeId: staffId } }, { verb: 'Start' }, { verb: 'Complete', body: { resolution: '已修复' } }]);
  await ticket(own, [{ verb: 'Close', body: { remark: '重复报修' } }]);
  await ticket(foreign, []);
});
afterAll(() => t.close());

/**
 * The days the report is asked for, one at a time: the test clock's (the intake's rows) and the
 * database's today (tickets are stamped by its clock).
 */
async function days(): Promise<string[]> {
  const today = (await t.db.execute(sql`select to_char((now() at time zone 'Asia/Shanghai')::date, 'YYYY-MM-DD') as day`)) as unknown as Rows<{ day: string }>;
  return [formatBusinessDate(t.clock.now()), today.rows[0]!.day];
}

/** Each (day, school) of the range counted straight from the rows, kind by kind. */
async function directCounts(from: string, to: string, schoolIds: number[] | null): Promise<Map<string, Record<string, number>>> {
  const inRange = (column: string) => sql`(${sql.raw(column)} at time zone 'Asia/Shanghai')::date between ${from}::date and ${to}::date`;
  const scoped = (column: string) => (schoolIds ? sql`${sql.raw(column)} in (${sql.join(schoolIds.map((id) => sql`${id}`), sql`, `)})` : sql`true`);
  const day = (column: string) => sql`to_char((${sql.raw(column)} at time zone 'Asia/Shanghai')::date, 'YYYY-MM-DD')`;
  const groups = new Map<string, Record<string, number>>();
  const add = async (measure: string, query: ReturnType<typeof sql>) => {
    for (const row of ((await t.db.execute(query)) as unknown as Rows<{ day: string; school_id: number; n: string }>).rows) {
      const key = `${row.day}/${Number(row.school_id)}`;
      const group = groups.get(key) ?? Object.fromEntries(MEASURES.map((name) => [name, 0]));
      group[measure] = Number(row.n);
      groups.set(key, group);
    }
  };
  await add('offlineDevices', sql`select ${day('started_at')} as day, school_id, count(distinct terminal_id) as n from terminal_offline_periods where ${inRange('started_at')} and ${scoped('school_id')} group by 1, 2`);
  await add('offlineMinutes', sql`select ${day('started_at')} as day, school_id, round(sum(extract(epoch from coalesce(ended_at, now()) - started_at)) / 60) as n from terminal_offline_periods where ${inRange('started_at')} and ${scoped('school_id')} group by 1, 2`);
  await add('failedRecognitions', sql`select ${day('recognized_at')} as day, school_id, count(*) as n from recognition_records where not success and ${inRange('recognized_at')} and ${scoped('school_id')} group by 1, 2`);
  await add('deviceErrors', sql`select ${day('logged_at')} as day, school_id, count(*) as n from terminal_logs where level = 'error' and ${inRange('logged_at')} and ${scoped('school_id')} group by 1, 2`);
  await add('ticketsOpened', sql`select ${day('created_at')} as day, school_id, count(*) as n from maintenance_tickets where ${inRange('created_at')} and ${scoped('school_id')} group by 1, 2`);
  await add('ticketsClosed', sql`select ${day('h.created_at')} as day, m.school_id, count(*) as n from state_history h join maintenance_tickets m on m.id = h.row_id
    where h.family = 'MaintenanceTicket' and h.to_state in ('4', '5') and coalesce(h.from_state, '') not in ('4', '5') and ${inRange('h.created_at')} and ${scoped('m.school_id')} group by 1, 2`);
  return groups;
}

async function search(token: string, from: string, to: string): Promise<Row[]> {
  const response = await t.injectAs(token, { method: 'POST', url: '/api/OpsDailyReport/Search', payload: { pageIndex: 1, pageSize: 200, dayFrom: from, dayTo: to, grain: 'day' } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.items as Row[];
}

/** A school's tickets opened and closed today, as the report answers them. */
async function ticketsOf(schoolId: number): Promise<{ opened: number; closed: number }> {
  const today = (await days())[1]!;
  const row = (await search(admin, today, today)).find((item) => Number(item.schoolId) === schoolId);
  return { opened: Number(row?.ticketsOpened ?? 0), closed: Number(row?.ticketsClosed ?? 0) };
}

/** The answer as the direct counts' shape; an open period's minutes run on with the database's clock, so they are compared apart. */
const byGroup = (items: Row[]) => new Map(items.map((row) => [`${row.period}/${row.schoolId}`, Object.fromEntries(MEASURES.map((name) => [name, Number(row[name])]))]));

function expectEqualGroups(answer: Map<string, Record<string, number>>, direct: Map<string, Record<string, number>>) {
  expect([...answer.keys()].sort()).toEqual([...direct.keys()].sort());
  for (const [key, expected] of direct) {
    const { offlineMinutes, ...rest } = answer.get(key)!;
    const { offlineMinutes: expectedMinutes, ...expectedRest } = expected;
    expect(rest, key).toEqual(expectedRest);
    expect(Math.abs(offlineMinutes! - expectedMinutes!), key).toBeLessThanOrEqual(1);
  }
}

describe('POST /api/OpsDailyReport/Search', () => {
  it('equals direct counts per day and school of what the terminals and tickets did', async () => {
    const [day, today] = await days();
    const answer = byGroup([...(await search(admin, day!, day!)), ...(await search(admin, today!, today!))]);
    const direct = new Map([...(await directCounts(day!, day!, null)), ...(await directCounts(today!, today!, null))]);
    expectEqualGroups(answer, direct);
    // The terminal's day, as it was made: silent 30 minutes past its offline time, three failed faces, two error lines.
    const own = answer.get(`${day}/${agent1Schools[0]}`)!;
    expect(own).toMatchObject({ offlineDevices: 1, failedRecognitions: 3, deviceErrors: 2 });
    expect(own.offlineMinutes).toBeGreaterThanOrEqual(30);
    // One completed after work, one closed unworked (the third is another school's).
    expect(await ticketsOf(agent1Schools[0]!)).toEqual({ opened: ticketsBefore.opened + 2, closed: ticketsBefore.closed + 2 });
  });

  it("covers only the agent's schools for the agent", async () => {
    for (const day of await days()) {
      const items = await search(agent1, day, day);
      expect(items.length).toBeGreaterThan(0);
      expect(items.every((row) => agent1Schools.includes(Number(row.schoolId)))).toBe(true);
      expectEqualGroups(byGroup(items), await directCounts(day, day, agent1Schools));
    }
  });

  it('exports the same groups through the report export', async () => {
    const [day] = await days();
    const response = await t.injectAs(admin, { method: 'GET', url: `/api/OpsDailyReport/Export?dayFrom=${day}&dayTo=${day}&grain=day` });
    expect(response.statusCode).toBe(200);
    const sheet = await readWorkbook(response);
    // A header, a row per group, the totals.
    expect(sheet.actualRowCount).toBe((await search(admin, day!, day!)).length + 2);
  });
});
