import type { Overview } from '@campus/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SchoolScope } from '../../src/platform/scope.js';
import { readOverview } from '../../src/reports/overview.js';
import { advanceOverviewCounter, overviewCounterMark, purgeExpiredOverviewCounts } from '../../src/reports/overview-counter.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { schoolIdsOf } from '../resources/fixtures.js';

type Rows<T> = { rows: T[] };

let t: TestApp;
let agentSchools: number[];
let schoolId: number;
let deviceId: number;
let serial = 700_000;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** An instant in China time (UTC+8 all year), written as the wall clock there. */
const china = (local: string) => new Date(Date.parse(`${local}Z`) - 8 * HOUR);
// 10:30 in China on a day of no demo record: the windows end within their eleventh hour, so every
// window has whole hours from the counter and an unfinished one from the table.
const NOW = china('2026-02-10T10:30:00');

beforeAll(async () => {
  t = await createTestApp();
  agentSchools = await schoolIdsOf(t, 'agent1');
  schoolId = agentSchools[0]!;
  deviceId = Number((await rows<{ id: number }>(sql`select id from devices where school_id = ${schoolId} order by id limit 1`))[0]!.id);
});
afterAll(() => t.close());

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await t.db.execute(query)) as unknown as Rows<T>).rows;
}

/** Stores recognitions as the intake does (one statement, the database stamping created_at); answers their ids. */
async function recognise(...instants: Date[]): Promise<number[]> {
  const ids: number[] = [];
  for (const at of instants) {
    const [row] = await rows<{ id: number }>(sql`insert into recognition_records
        (recognized_at, school_id, device_id, person_kind, direction, similarity, event_serial, success)
        values (${at.toISOString()}::timestamptz, ${schoolId}, ${deviceId}, 5, 1, 40, ${++serial}, false) returning id`);
    ids.push(Number(row!.id));
  }
  return ids;
}

const scoped = (scope: SchoolScope) => (scope.kind === 'all' ? sql`true` : sql`school_id in (${sql.join(scope.schoolIds.map((id) => sql`${id}`), sql`, `)})`);

/** Today's, yesterday's and last week's recognitions, per hour and per school, counted straight from the records. */
async function direct(scope: SchoolScope, now: Date) {
  const dayStart = (at: Date) => china(`${new Date(at.getTime() + 8 * HOUR).toISOString().slice(0, 10)}T00:00:00`);
  const window = (back: number) => ({ from: new Date(dayStart(now).getTime() - back * DAY), to: new Date(now.getTime() - back * DAY) });
  const where = (w: { from: Date; to: Date }) =>
    sql`recognized_at >= ${w.from.toISOString()}::timestamptz and recognized_at < ${w.to.toISOString()}::timestamptz and ${scoped(scope)}`;
  const count = async (back: number) => Number((await rows<{ n: string }>(sql`select count(*) as n from recognition_records where ${where(window(back))}`))[0]!.n);
  const byHour = Array.from({ length: 24 }, () => 0);
  const hours = await rows<{ hour: number; n: string }>(
    sql`select extract(hour from recognized_at at time zone 'Asia/Shanghai')::int as hour, count(*) as n from recognition_records where ${where(window(0))} group by 1`,
  );
  for (const { hour, n } of hours) byHour[hour] = Number(n);
  const top = await rows<{ school_id: number; n: string }>(
    sql`select school_id, count(*) as n from recognition_records where ${where(window(0))} group by 1 order by 2 desc, 1 limit 10`,
  );
  return {
    recognitions: { today: await count(0), yesterday: await count(1), lastWeek: await count(7) },
    byHour,
    top: top.map((row) => ({ schoolId: Number(row.school_id), recognitions: Number(row.n) })),
  };
}

const expectExact = async (scope: SchoolScope, now = NOW): Promise<Overview> => {
  const overview = await readOverview(t.db, scope, now);
  const expected = await direct(scope, now);
  expect(overview.figures.recognitions).toEqual(expected.recognitions);
  expect(overview.recognitionsByHour).toEqual(expected.byHour);
  expect(overview.topSchools.map(({ schoolId: id, recognitions }) => ({ schoolId: id, recognitions }))).toEqual(expected.top);
  return overview;
};

const counterOf = async (day: string, hour: number) =>
  Number((await rows<{ n: number }>(sql`select recognitions as n from recognition_hour_counts where day = ${day}::date and school_id = ${schoolId} and hour = ${hour}`))[0]?.n ?? 0);

describe("the Overview's recognitions: an hourly counter kept past a watermark, and the records past it", () => {
  it('holds every record up to its mark once the demo is seeded, by China day and hour', async () => {
    const mark = await overviewCounterMark(t.db);
    expect(mark).toBeGreaterThan(0);
    const differences = await rows<{ n: string }>(sql`select count(*) as n from (
        (select (recognized_at at time zone 'Asia/Shanghai')::date as day, school_id, extract(hour from recognized_at at time zone 'Asia/Shanghai')::int as hour, count(*)::int as n
          from recognition_records where id <= ${mark} group by 1, 2, 3
         except select day, school_id, hour, recognitions from recognition_hour_counts)
        union all
        (select day, school_id, hour, recognitions from recognition_hour_counts
         except select (recognized_at at time zone 'Asia/Shanghai')::date, school_id, extract(hour from recognized_at at time zone 'Asia/Shanghai')::int, count(*)::int
          from recognition_records where id <= ${mark} group by 1, 2, 3)) d`);
    expect(Number(differences[0]!.n)).toBe(0);
    expect(Number((await rows<{ n: string }>(sql`select count(*) as n from recognition_records where id > ${mark}`))[0]!.n)).toBe(0);
  });

  it('counts 23:59 and 00:01 in their own China days, and a window up to the minute within its last hour', async () => {
    const one: SchoolScope = { kind: 'schools', schoolIds: [schoolId] };
    const agent: SchoolScope = { kind: 'schools', schoolIds: agentSchools };
    const before = (await readOverview(t.db, one, NOW)).figures.recognitions;
    await recognise(
      china('2026-02-09T23:59:00'), // yesterday, after the window's 10:30: not yesterday's, not today's
      china('2026-02-10T00:01:00'),
      china('2026-02-10T09:15:00'),
      china('2026-02-10T10:20:00'), // today's unfinished hour
      china('2026-02-10T10:40:00'), // after now, in the same hour: not counted
      china('2026-02-09T10:15:00'),
      china('2026-02-09T10:45:00'), // yesterday after the same time of day
      china('2026-02-02T23:59:00'), // the day before last week's
      china('2026-02-03T00:01:00'),
      china('2026-02-03T10:29:59'),
      china('2026-02-03T10:30:00'), // last week at the very instant: the window ends before it
    );
    const expectDeltas = async () => {
      const after = (await expectExact(one)).figures.recognitions;
      expect({ today: after.today - before.today, yesterday: after.yesterday - before.yesterday, lastWeek: after.lastWeek - before.lastWeek }).toEqual({ today: 3, yesterday: 1, lastWeek: 2 });
    };
    // Not counted yet: all of them are past the mark and read from the table.
    await expectDeltas();
    await expectExact(agent);
    await expectExact({ kind: 'all' });

    expect(await advanceOverviewCounter(t.db, { settleSeconds: 0 })).toBe(11);
    expect(await counterOf('2026-02-09', 23)).toBe(1);
    expect(await counterOf('2026-02-10', 0)).toBe(1);
    expect(await counterOf('2026-02-10', 10)).toBe(2);
    expect(await counterOf('2026-02-02', 23)).toBe(1);
    expect(await counterOf('2026-02-03', 10)).toBe(2);
    // Counted: the same figures from the counter's hours and the table's unfinished hour.
    await expectDeltas();
    const overview = await expectExact(agent);
    expect(overview.topSchools.every((school) => agentSchools.includes(school.schoolId))).toBe(true);
    await expectExact({ kind: 'all' });
    // At midnight and just after, the windows are the day's first minutes (no whole hour).
    await expectExact(one, china('2026-02-10T00:00:00'));
    await expectExact(one, china('2026-02-10T00:01:30'));
    await expectExact(agent, china('2026-02-10T23:59:59'));
  });

  it('counts records that arrived after the counter last moved, and the counter leaves those still settling', async () => {
    const one: SchoolScope = { kind: 'schools', schoolIds: [schoolId] };
    await advanceOverviewCounter(t.db, { settleSeconds: 0 });
    const before = await expectExact(one);
    const markBefore = await overviewCounterMark(t.db);
    const ids = await recognise(china('2026-02-10T08:05:00'), china('2026-02-10T10:29:00'), china('2026-02-09T08:00:00'));
    expect(Math.min(...ids)).toBeGreaterThan(markBefore);
    const after = await expectExact(one);
    expect(after.figures.recognitions.today - before.figures.recognitions.today).toBe(2);
    expect(after.figures.recognitions.yesterday - before.figures.recognitions.yesterday).toBe(1);
    expect(after.recognitionsByHour[8]! - before.recognitionsByHour[8]!).toBe(1);
    // Stamped by the database a moment ago: younger than the settle time, so the job leaves them
    // (a lower id may still be committing) and the Overview reads them from the table meanwhile.
    expect(await advanceOverviewCounter(t.db)).toBe(0);
    expect(await overviewCounterMark(t.db)).toBe(markBefore);
    await expectExact(one);
    expect(await advanceOverviewCounter(t.db, { settleSeconds: 0 })).toBe(3);
    expect(await overviewCounterMark(t.db)).toBe(Math.max(...ids));
    expect((await expectExact(one)).figures.recognitions).toEqual(after.figures.recognitions);
  });

  it('stops a batch before the first record still settling, and crosses a gap of ids', async () => {
    const one: SchoolScope = { kind: 'schools', schoolIds: [schoolId] };
    await advanceOverviewCounter(t.db, { settleSeconds: 0 });
    const [settled] = await recognise(china('2026-02-10T07:00:00'));
    // A gap of ids (inserts rolled back), then a record stamped now but backdated as settled, then one still settling.
    await t.db.execute(sql`select setval(pg_get_serial_sequence('recognition_records', 'id'), ${settled! + 500})`);
    const [old] = await recognise(china('2026-02-10T07:10:00'));
    await t.db.execute(sql`update recognition_records set created_at = now() - interval '1 minute' where id in (${settled!}, ${old!})`);
    const [young] = await recognise(china('2026-02-10T07:20:00'));
    expect(await advanceOverviewCounter(t.db, { batchIds: 100 })).toBe(2);
    expect(await overviewCounterMark(t.db)).toBe(old);
    expect(young).toBeGreaterThan(old!);
    const overview = await expectExact(one);
    expect(overview.recognitionsByHour[7]).toBeGreaterThanOrEqual(3);
  });

  it("through the API: an agent's Overview covers its schools, exactly, with records past the mark", async () => {
    t.clock.advance(NOW.getTime() - t.clock.now().getTime());
    await recognise(china('2026-02-10T10:10:00'), china('2026-02-10T06:00:00'));
    const response = await t.injectAs(await t.loginAs('agent1'), { method: 'GET', url: '/api/Overview/GetSummary' });
    expect(response.statusCode, response.body).toBe(200);
    const overview = response.json().data as Overview;
    const expected = await direct({ kind: 'schools', schoolIds: agentSchools }, NOW);
    expect(overview.figures.recognitions).toEqual(expected.recognitions);
    expect(overview.recognitionsByHour).toEqual(expected.byHour);
    expect(overview.figures.recognitions.today).toBeGreaterThan(0);
  });

  it("drops the counter's days past the records' retention", async () => {
    await t.db.execute(sql`insert into recognition_hour_counts (day, school_id, hour, recognitions) values ('2024-01-01', ${schoolId}, 9, 5), ('2026-02-01', ${schoolId}, 9, 5)
      on conflict do nothing`);
    expect(await purgeExpiredOverviewCounts(t.db, NOW)).toBeGreaterThanOrEqual(1);
    const left = await rows<{ day: string }>(sql`select to_char(day, 'YYYY-MM-DD') as day from recognition_hour_counts where day in ('2024-01-01', '2026-02-01')`);
    expect(left.map((row) => row.day)).toEqual(['2026-02-01']);
    await t.db.execute(sql`delete from recognition_hour_counts where day = '2026-02-01' and school_id = ${schoolId} and hour = 9 and recognitions = 5`);
  });

  it("keeps each school's students and parents in the writing statement: added, moved, deleted", async () => {
    const kept = async () => {
      const differences = await rows<{ n: string }>(sql`select count(*) as n from (
          (select school_id, students, parents from school_stock_counts where students <> 0 or parents <> 0
           except select school_id, sum(s), sum(p) from (select school_id, count(*) as s, 0 as p from students group by 1
             union all select school_id, 0, count(*) from parents group by 1) x group by 1)
          union all
          (select school_id, sum(s), sum(p) from (select school_id, count(*) as s, 0 as p from students group by 1
             union all select school_id, 0, count(*) from parents group by 1) x group by 1
           except select school_id, students, parents from school_stock_counts)) d`);
      expect(Number(differences[0]!.n)).toBe(0);
    };
    const studentsOf = async (scope: SchoolScope) => (await readOverview(t.db, scope, new Date())).figures.students.today;
    const one: SchoolScope = { kind: 'schools', schoolIds: [schoolId] };
    const other = agentSchools[1]!;
    await kept();
    const before = await studentsOf(one);
    const agent = await t.loginAs('agent1');
    const added = await t.injectAs(agent, { method: 'POST', url: '/api/Student/Add', payload: { schoolId, name: `计数${serial}` } });
    expect(added.statusCode, added.body).toBe(200);
    await kept();
    expect(await studentsOf(one)).toBe(before + 1);
    await t.db.execute(sql`update students set school_id = ${other} where id = ${added.json().data.id}`);
    await kept();
    expect(await studentsOf(one)).toBe(before);
    const deleted = await t.injectAs(agent, { method: 'POST', url: '/api/Student/BatchDelete', payload: [added.json().data.id] });
    expect(deleted.statusCode, deleted.body).toBe(200);
    await kept();
    // Yesterday's figure counts the rows created by then: the one added now is not among them.
    const overview = await readOverview(t.db, { kind: 'schools', schoolIds: agentSchools }, new Date());
    const direct = await rows<{ today: string; yesterday: string }>(sql`select count(*) filter (where created_at <= now()) as today,
        count(*) filter (where created_at <= now() - interval '1 day') as yesterday from parents where school_id in (${sql.join(agentSchools.map((id) => sql`${id}`), sql`, `)})`);
    expect(overview.figures.parents.today).toBe(Number(direct[0]!.today));
    expect(overview.figures.parents.yesterday).toBe(Number(direct[0]!.yesterday));
  });
});
