import { formatBusinessDate } from '@campus/contract';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices, recognitionRecords, students } from '../../src/db/schema/index.js';
import { isSchoolDay } from '../../src/platform/school-days.js';
import { rollUpAttendance } from '../../src/reports/attendance-rollup.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { grantEverything, schoolIdsOf } from '../resources/fixtures.js';

type Row = Record<string, unknown>;

let t: TestApp;
let admin: string;
let agent1: string;
let agent1Schools: number[];
let school: number;
let device: number;
let kids: number[];
/** A recent school day of `school` and a recent day without school (a weekend), both before today. */
let schoolDay: string;
let dayOff: string;
let serial = 7_000_000;

// The job closes days by the wall clock (the records' days are the database's): name real recent days.
const now = () => new Date();
const roll = () => rollUpAttendance(t.db, now(), { settleSeconds: 0, batchIds: 500 });
const shanghai = (day: string, time: string) => new Date(`${day}T${time}+08:00`);

async function recognise(personId: number, day: string, time: string, direction: 1 | 2, success = true): Promise<void> {
  serial += 1;
  await t.db.insert(recognitionRecords).values({
    recognizedAt: shanghai(day, time),
    schoolId: school,
    deviceId: device,
    personKind: 1,
    personId,
    personName: `学生${personId}`,
    direction,
    similarity: success ? 96 : 40,
    eventSerial: serial,
    success,
  });
}

async function recentDay(predicate: (day: string) => Promise<boolean>): Promise<string> {
  for (let back = 2; back < 25; back += 1) {
    const day = formatBusinessDate(new Date(Date.now() - back * 86_400_000));
    if (await predicate(day)) return day;
  }
  throw new Error('no such recent day');
}

beforeAll(async () => {
  t = await createTestApp();
  await grantEverything(t, 'agent1');
  [admin, agent1] = await Promise.all([t.loginAs('admin'), t.loginAs('agent1')]);
  agent1Schools = await schoolIdsOf(t, 'agent1');
  school = agent1Schools[0]!;
  [{ id: device }] = (await t.db.select({ id: devices.id }).from(devices).where(eq(devices.schoolId, school)).limit(1)) as [{ id: number }];
  schoolDay = await recentDay((day) => isSchoolDay(t.db, school, day));
  dayOff = await recentDay(async (day) => !(await isSchoolDay(t.db, school, day)) && [0, 6].includes(new Date(`${day}T00:00:00Z`).getUTCDay()));
  // Children the seed did not recognise that day, so their first arrival is this file's.
  kids = (
    await t.db
      .select({ id: students.id })
      .from(students)
      .where(and(eq(students.schoolId, school), eq(students.state, 1), sql`not exists (select 1 from recognition_records r where r.person_id = ${students.id} and r.person_kind = 1
        and (r.recognized_at at time zone 'Asia/Shanghai')::date = ${schoolDay}::date)`))
      .limit(4)
  ).map((s) => s.id);
  expect(kids.length).toBe(4);
  // Whatever the seed recognised first, then this file's records.
  await roll();
});
afterAll(() => t.close());

const search = async (token: string, report: string, body: Row) => {
  const response = await t.injectAs(token, { method: 'POST', url: `/api/${report}/Search`, payload: { pageIndex: 1, pageSize: 200, ...body } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as { items: Row[]; total: number; totals: Record<string, number> };
};
const one = async <T>(query: ReturnType<typeof sql>) => ((await t.db.execute(query)) as unknown as { rows: T[] }).rows[0]!;

/** The day's figures counted straight from the recognition records and the students, by the same rules. */
async function directDay(schoolId: number, day: string, isSchool: boolean) {
  const counts = await one<{ present: number; late: number; left_early: number; recognitions: number; failed: number }>(sql`
    with recs as (select * from recognition_records where school_id = ${schoolId} and (recognized_at at time zone 'Asia/Shanghai')::date = ${day}::date),
    kids as (select person_id, min(recognized_at) filter (where direction = 1) as first_in, max(recognized_at) filter (where direction = 2) as last_out
      from recs where person_kind = 1 and success and person_id is not null group by person_id)
    select (select count(*) from kids)::int as present,
      (select count(*) from kids where (first_in at time zone 'Asia/Shanghai')::time > '08:00')::int as late,
      (select count(*) from kids where (last_out at time zone 'Asia/Shanghai')::time < '16:00')::int as left_early,
      (select count(*) from recs)::int as recognitions, (select count(*) from recs where not success)::int as failed`);
  const { enrolled } = await one<{ enrolled: number }>(sql`select count(*)::int as enrolled from students where school_id = ${schoolId} and state = 1`);
  return {
    schoolDays: isSchool ? 1 : 0,
    expected: isSchool ? enrolled : 0,
    present: counts.present,
    absent: isSchool ? Math.max(enrolled - counts.present, 0) : 0,
    late: isSchool ? counts.late : 0,
    leftEarly: isSchool ? counts.left_early : 0,
    recognitions: counts.recognitions,
    failed: counts.failed,
  };
}

const dayRow = async (token: string, schoolId: number, day: string) => {
  const answer = await search(token, 'SchoolStatistics', { dayFrom: day, dayTo: day, schoolId });
  expect(answer.items).toHaveLength(1);
  return answer.items[0]!;
};

describe('SchoolStatistics (schoolStatistics)', () => {
  it('counts a late child once a day however many records it has, and equals a direct count of the records', async () => {
    const [early, late, leaver] = kids as [number, number, number];
    await recognise(early, schoolDay, '07:40:00', 1);
    await recognise(early, schoolDay, '16:45:00', 2);
    for (const time of ['08:20:00', '08:21:00', '08:25:00', '12:00:00']) await recognise(late, schoolDay, time, 1);
    await recognise(late, schoolDay, '17:00:00', 2);
    await recognise(leaver, schoolDay, '07:55:00', 1);
    await recognise(leaver, schoolDay, '11:30:00', 2);
    await recognise(leaver, schoolDay, '07:58:00', 1, false);
    await roll();
    const row = await dayRow(admin, school, schoolDay);
    const direct = await directDay(school, schoolDay, true);
    expect(row).toMatchObject({ ...direct, schoolId: school, period: schoolDay, schoolIdLabel: expect.any(String) });
    expect(direct.late).toBeGreaterThanOrEqual(1);
    // Records of the same child arriving later (a second run) change nothing: still once.
    await recognise(late, schoolDay, '09:00:00', 1);
    await roll();
    expect(await dayRow(admin, school, schoolDay)).toMatchObject(await directDay(school, schoolDay, true));
    expect((await dayRow(admin, school, schoolDay)).late).toBe(row.late);
  });

  it('takes a child out of late and left early when a later run reads an earlier arrival and a later departure', async () => {
    const kid = kids[3]!;
    await recognise(kid, schoolDay, '08:30:00', 1);
    await recognise(kid, schoolDay, '11:00:00', 2);
    await roll();
    const before = await dayRow(admin, school, schoolDay);
    expect(before).toMatchObject(await directDay(school, schoolDay, true));
    // A terminal that was offline uploads its day afterwards: the child came on time and stayed.
    await recognise(kid, schoolDay, '07:50:00', 1);
    await recognise(kid, schoolDay, '16:30:00', 2);
    await roll();
    const after = await dayRow(admin, school, schoolDay);
    expect(after).toMatchObject(await directDay(school, schoolDay, true));
    expect(after).toMatchObject({ present: before.present, late: Number(before.late) - 1, leftEarly: Number(before.leftEarly) - 1 });
  });

  it('keeps an agent to its schools; its totals equal a direct count over them', async () => {
    const answer = await search(agent1, 'SchoolStatistics', { dayFrom: schoolDay, dayTo: schoolDay });
    expect(answer.items.length).toBeGreaterThan(0);
    expect(answer.items.every((row) => agent1Schools.includes(Number(row.schoolId)))).toBe(true);
    const { n } = await one<{ n: number }>(sql`select count(*)::int as n from recognition_records where school_id = any(${`{${agent1Schools.join(',')}}`}::int[])
      and (recognized_at at time zone 'Asia/Shanghai')::date = ${schoolDay}::date`);
    expect(answer.totals.recognitions).toBe(n);
    const company = await search(admin, 'SchoolStatistics', { dayFrom: schoolDay, dayTo: schoolDay });
    expect(company.totals.recognitions).toBeGreaterThanOrEqual(n);
    expect(company.items.some((row) => !agent1Schools.includes(Number(row.schoolId)))).toBe(true);
  });

  it('follows holidayManage: a holiday takes the expected children away, a make-up day brings them', async () => {
    const before = await dayRow(admin, school, schoolDay);
    expect(before.expected).toBeGreaterThan(0);
    const add = (payload: Row) => t.injectAs(agent1, { method: 'POST', url: '/api/SchoolHoliday/Add?view=holidayManage', payload });
    expect((await add({ schoolId: school, name: '校庆', kind: 2, startDate: schoolDay, endDate: schoolDay })).statusCode).toBe(200);
    expect((await add({ schoolId: school, name: '补课', kind: 3, startDate: dayOff, endDate: dayOff })).statusCode).toBe(200);
    await roll();
    const holiday = await dayRow(admin, school, schoolDay);
    expect(holiday).toMatchObject(await directDay(school, schoolDay, false));
    expect(holiday).toMatchObject({ schoolDays: 0, expected: 0, absent: 0, present: before.present });
    const makeUp = await dayRow(admin, school, dayOff);
    expect(makeUp).toMatchObject(await directDay(school, dayOff, true));
    expect(makeUp.expected).toBe(before.expected);
  });
});

describe('DiscernStatistics (stuMonthStatistic)', () => {
  it("answers each student's month as a direct count of the records over the school's school days", async () => {
    const month = `${schoolDay.slice(0, 7)}-01`;
    const answer = await search(admin, 'DiscernStatistics', { dayFrom: month, dayTo: month, schoolId: school });
    expect(answer.items.length).toBeGreaterThanOrEqual(kids.length);
    const lastClosed = formatBusinessDate(now()) < `${month.slice(0, 7)}-31` ? formatBusinessDate(now()) : null;
    const { days } = await one<{ days: number }>(sql`select count(*)::int as days from attendance_school_days where school_id = ${school} and date_trunc('month', day)::date = ${month}::date and work_day`);
    const end = lastClosed ?? `${month.slice(0, 7)}-31`;
    let schoolDays = 0;
    for (let d = month; d <= end && d.slice(0, 7) === month.slice(0, 7); d = formatBusinessDate(new Date(Date.parse(`${d}T12:00:00+08:00`) + 86_400_000))) {
      if (await isSchoolDay(t.db, school, d)) schoolDays += 1;
    }
    expect(days).toBe(schoolDays);
    for (const kid of kids) {
      const row = answer.items.find((item) => item.studentId === kid)!;
      const direct = await one<{ present: number; present_school: string[]; late: string[]; early: string[] }>(sql`
        with k as (select (recognized_at at time zone 'Asia/Shanghai')::date as day, min(recognized_at) filter (where direction = 1) as first_in, max(recognized_at) filter (where direction = 2) as last_out
          from recognition_records where person_kind = 1 and success and person_id = ${kid} and date_trunc('month', (recognized_at at time zone 'Asia/Shanghai')::date)::date = ${month}::date group by 1)
        select count(*)::int as present, array_agg(to_char(day, 'YYYY-MM-DD')) as present_school,
          array_agg(to_char(day, 'YYYY-MM-DD')) filter (where (first_in at time zone 'Asia/Shanghai')::time > '08:00') as late,
          array_agg(to_char(day, 'YYYY-MM-DD')) filter (where (last_out at time zone 'Asia/Shanghai')::time < '16:00') as early from k`);
      const onSchoolDays = async (list: string[] | null) => {
        let n = 0;
        for (const day of list ?? []) if (await isSchoolDay(t.db, school, day)) n += 1;
        return n;
      };
      expect(row).toMatchObject({
        schoolDays,
        presentDays: direct.present,
        absentDays: schoolDays - (await onSchoolDays(direct.present_school)),
        lateDays: await onSchoolDays(direct.late),
        leftEarlyDays: await onSchoolDays(direct.early),
        studentIdLabel: expect.any(String),
      });
    }
    // The totals row (read from the school rows) equals the sum of the students' rows.
    const sums = Object.fromEntries(['schoolDays', 'presentDays', 'absentDays', 'lateDays', 'leftEarlyDays'].map((m) => [m, answer.items.reduce((s, r) => s + Number(r[m]), 0)]));
    expect(answer.total).toBe(answer.items.length);
    expect(answer.totals).toMatchObject(sums);
  });

  it("keeps an agent to its schools' students", async () => {
    const month = `${schoolDay.slice(0, 7)}-01`;
    const answer = await search(agent1, 'DiscernStatistics', { dayFrom: month, dayTo: month });
    expect(answer.items.length).toBeGreaterThan(0);
    expect(answer.items.every((row) => agent1Schools.includes(Number(row.schoolId)))).toBe(true);
    const other = await search(admin, 'DiscernStatistics', { dayFrom: month, dayTo: month, pageSize: 1 });
    expect(other.totals.schoolDays).toBeGreaterThanOrEqual(answer.totals.schoolDays!);
  });
});

describe('OrderStatistics (orderStatistics)', () => {
  const range = { dayFrom: '2020-01-01', dayTo: formatBusinessDate(new Date(Date.now() + 86_400_000)), grain: 'month' };
  const ids = () => `{${agent1Schools.join(',')}}`;

  it('counts device and mall orders as a direct count of both tables, by kind, agent and state', async () => {
    const answer = await search(admin, 'OrderStatistics', range);
    const direct = await one<{ orders: number; amount: number }>(sql`select
      ((select count(*) from device_orders) + (select count(*) from market_orders))::int as orders,
      ((select coalesce(sum(total_amount), 0) from device_orders) + (select coalesce(sum(coalesce(pay_amount, total_amount, 0)), 0) from market_orders))::bigint as amount`);
    expect(direct.orders).toBeGreaterThan(0);
    expect(answer.totals.orders).toBe(direct.orders);
    expect(answer.totals.amount).toBe(Number(direct.amount));
    expect(answer.items.every((row) => [1, 2].includes(Number(row.orderKind)))).toBe(true);
    const mall = await search(admin, 'OrderStatistics', { ...range, orderKind: 2 });
    const { n } = await one<{ n: number }>(sql`select count(*)::int as n from market_orders`);
    expect(mall.totals.orders).toBe(n);
    expect(mall.items.every((row) => Number(row.state) > 200)).toBe(true);
  });

  it("keeps an agent to its schools' orders", async () => {
    const answer = await search(agent1, 'OrderStatistics', range);
    const { n } = await one<{ n: number }>(sql`select ((select count(*) from device_orders where school_id = any(${ids()}::int[]))
      + (select count(*) from market_orders where school_id = any(${ids()}::int[])))::int as n`);
    expect(answer.totals.orders).toBe(n);
  });
});

describe('GET /api/DiscernStatistics/Cockpit (jsc)', () => {
  it("answers the school's day from the rollups, equal to a direct count, and refuses a school out of scope", async () => {
    const today = formatBusinessDate(t.clock.now());
    const cockpit = async (token: string, schoolId: number) => t.injectAs(token, { method: 'GET', url: `/api/DiscernStatistics/Cockpit?schoolId=${schoolId}` });
    await rollUpAttendance(t.db, t.clock.now(), { settleSeconds: 0 });
    const response = await cockpit(agent1, school);
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json().data as Row & { recent: Row[]; devices: { total: number } };
    const direct = await directDay(school, today, await isSchoolDay(t.db, school, today));
    expect(answer).toMatchObject({ day: today, arrived: direct.present, absent: direct.absent, late: direct.late, recognitions: direct.recognitions });
    expect(answer.devices.total).toBeGreaterThanOrEqual(0);
    const other = (await t.db.execute(sql`select id from schools where not (id = any(${`{${agent1Schools.join(',')}}`}::int[])) limit 1`)) as unknown as { rows: { id: number }[] };
    expect((await cockpit(agent1, other.rows[0]!.id)).statusCode).toBe(403);
    expect((await cockpit(admin, other.rows[0]!.id)).statusCode).toBe(200);
  });
});

describe('the attendance job behind its records', () => {
  it('reads a backlog in growing batches within one run, and its figures still equal a direct count', async () => {
    // 3,000 records of unknown faces: batches of 500, 1,000 and 2,000 ids read them all in three transactions.
    await t.db.execute(sql`insert into recognition_records (recognized_at, school_id, device_id, person_kind, direction, similarity, event_serial, success)
      select ${shanghai(schoolDay, '09:00:00')}::timestamptz + g * interval '1 second', ${school}, ${device}, 5, 1, 40, 8000000 + g, false
      from generate_series(1, 3000) as g`);
    // Rewriting a school day is enough to vacuum here: the run vacuums after its last commit (on PGlite too).
    const result = await rollUpAttendance(t.db, now(), { settleSeconds: 0, batchIds: 500, batches: 3, vacuumAfterRewrites: 1 });
    expect(result.records).toBe(3000);
    expect(result).toMatchObject({ schoolDaysRewritten: 3, vacuumed: true });
    // holidayManage above made the day a holiday: the direct count follows the calendar as it is now.
    expect(await dayRow(admin, school, schoolDay)).toMatchObject(await directDay(school, schoolDay, await isSchoolDay(t.db, school, schoolDay)));
  });
});

describe('the coarser attendance rollups (weeks and months per school, days per agent)', () => {
  const all = async (query: ReturnType<typeof sql>) => ((await t.db.execute(query)) as unknown as { rows: Row[] }).rows;
  /** SchoolStatistics' measures summed straight from the school days, by the same rules. */
  const SUMS = sql.raw(`count(*)::int as days, count(*) filter (where work_day)::int as school_days,
    coalesce(sum(enrolled) filter (where work_day), 0)::int as expected, sum(present)::int as present,
    coalesce(sum(greatest(enrolled - present, 0)) filter (where work_day), 0)::int as absent,
    coalesce(sum(late) filter (where work_day), 0)::int as late, coalesce(sum(left_early) filter (where work_day), 0)::int as left_early,
    sum(recognitions)::int as recognitions, sum(failed)::int as failed`);
  const KEPT = sql.raw(`days, school_days, expected, present, absent, late, left_early, recognitions, failed`);

  it('equal the school days summed directly after the runs above (records, a later upload, holidayManage)', async () => {
    for (const grain of ['week', 'month'] as const) {
      const unit = sql.raw(`'${grain}'`);
      const kept = await all(sql`select to_char(period, 'YYYY-MM-DD') as period, school_id, agent_id, ${KEPT} from attendance_school_periods
        where grain = ${grain} and days <> 0 order by 1, 2, 3`);
      const direct = await all(sql`select to_char(date_trunc(${unit}, day::timestamp), 'YYYY-MM-DD') as period, school_id, agent_id, ${SUMS}
        from attendance_school_days group by 1, 2, 3 order by 1, 2, 3`);
      expect(direct.length).toBeGreaterThan(0);
      expect(kept, grain).toEqual(direct);
    }
    const keptDays = await all(sql`select to_char(day, 'YYYY-MM-DD') as day, agent_id, ${KEPT} from attendance_agent_days where days <> 0 order by 1, 2`);
    const directDays = await all(sql`select to_char(day, 'YYYY-MM-DD') as day, agent_id, ${SUMS} from attendance_school_days group by 1, 2 order by 1, 2`);
    expect(keptDays).toEqual(directDays);
  });

  it('answers a long range by week and month per school, and per period alone, as a direct count over the school days and the records', async () => {
    // From mid-week to yesterday: whole weeks and months inside, single days at both ends.
    const dayTo = formatBusinessDate(new Date(Date.now() - 86_400_000));
    const dayFrom = formatBusinessDate(new Date(Date.now() - 75 * 86_400_000));
    const inRange = sql`day between ${dayFrom}::date and ${dayTo}::date`;
    const asMeasures = (list: Row[], keys: string[]) =>
      Object.fromEntries(list.map((row) => [keys.map((k) => String(row[k])).join('|'), [row.school_days ?? row.schoolDays, row.expected, row.present, row.absent, row.late, row.left_early ?? row.leftEarly, row.recognitions, row.failed].map(Number)]));
    for (const [token, scope] of [[admin, sql`true`], [agent1, sql`school_id = any(${`{${agent1Schools.join(',')}}`}::int[])`]] as const) {
      for (const grain of ['week', 'month'] as const) {
        const unit = sql.raw(`'${grain}'`);
        const bySchool = await summary(token, { dayFrom, dayTo, grain, groupBy: 'period,schoolId' });
        const direct = await all(sql`select to_char(date_trunc(${unit}, day::timestamp), 'YYYY-MM-DD') as period, school_id as "schoolId", ${SUMS}
          from attendance_school_days where ${inRange} and ${scope} group by 1, 2`);
        expect(direct.length).toBeGreaterThan(2);
        expect(asMeasures(bySchool.items, ['period', 'schoolId']), grain).toEqual(asMeasures(direct, ['period', 'schoolId']));
        const byPeriod = await summary(token, { dayFrom, dayTo, grain, groupBy: 'period' });
        const directPeriods = await all(sql`select to_char(date_trunc(${unit}, day::timestamp), 'YYYY-MM-DD') as period, ${SUMS}
          from attendance_school_days where ${inRange} and ${scope} group by 1`);
        expect(asMeasures(byPeriod.items, ['period']), grain).toEqual(asMeasures(directPeriods, ['period']));
      }
      // The totals of the whole range: the records counted directly.
      const { n } = await one<{ n: number }>(sql`select count(*)::int as n from recognition_records
        where (recognized_at at time zone 'Asia/Shanghai')::date between ${dayFrom}::date and ${dayTo}::date and ${scope}`);
      const searched = await search(token, 'SchoolStatistics', { dayFrom, dayTo, grain: 'month' });
      expect(searched.totals.recognitions).toBe(n);
      expect(n).toBeGreaterThan(0);
    }
  });
});

const summary = async (token: string, query: Record<string, string>) => {
  const response = await t.injectAs(token, { method: 'GET', url: `/api/SchoolStatistics/GetSummary?${new URLSearchParams(query)}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as { items: Row[]; totals: Record<string, number> };
};
