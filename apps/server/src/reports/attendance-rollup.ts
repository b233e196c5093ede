/**
 * Keeps the attendance rollups (db/schema/attendance.ts) from the recognition records past a
 * watermark, as a recurring job outside the intake's transaction (docs/decisions.md "Attendance
 * rollups"). Each run, under the watermark row's lock so instances take turns:
 *   1. closes the days up to today: a row per school and day (school day or not, students expected)
 *      and a row per enrolled student and month, so a child never recognised is still absent;
 *   2. recounts the days a holidayManage write changed (queued by a trigger on school_holidays);
 *   3. reads the records past the watermark in id ranges and merges them: first arrival and last
 *      departure per student and day, and the changes they make to the school's day and the student's
 *      month. A child is present, late or early once per day however many records it has.
 * Records newer than SETTLE_SECONDS are left for a later run: ids are handed out before commit, so a
 * lower id may still be committing; the watermark never passes a record younger than that.
 */
import { ATTENDANCE_ARRIVAL_DEADLINE, ATTENDANCE_EARLIEST_DEPARTURE, CHINA_OFFSET_MS, formatBusinessDate } from '@campus/contract';
import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Database, type Executor } from '../db/client.js';
import { schoolDayDecider } from '../platform/school-days.js';
import type { RecurringJob } from '../platform/recurring-jobs.js';

export const ATTENDANCE_WATERMARK = 'attendance';
/** Record ids read by a run's first transaction. */
const BATCH_IDS = 50_000;
/**
 * A run that stays behind (a backfill, a backlog after downtime) doubles its batches up to this: one
 * statement over 400,000 ids costs half as much per record as eight over 50,000 (bench:stats, 10M records).
 */
const MAX_BATCH_IDS = 400_000;
/** Batches and ids per run at most, so one run never holds an instance's job timer for long. */
const BATCHES_PER_RUN = 40;
const IDS_PER_RUN = 2_000_000;
/**
 * School-day rows a run may rewrite before it vacuums them. A backfill's batches of scattered ids each
 * rewrite most school days (i31-10m: 91,000 rows in 76 MB, 11 MB after VACUUM FULL), and every read of a
 * range pays for the dead rows until autovacuum comes by; a normal run rewrites today's few thousand.
 */
const VACUUM_AFTER_REWRITES = 50_000;
/** A record younger than this (by the database's clock) waits for the next run. */
export const SETTLE_SECONDS = 30;
const STUDENT = 1;
const DIRECTION_IN = 1;
const DIRECTION_OUT = 2;
const DAY_MS = 86_400_000;
// China keeps one offset all year (no summer time): a business day is plain arithmetic.

const businessDayOf = (ms: number) => new Date(ms + CHINA_OFFSET_MS).toISOString().slice(0, 10);
const monthOf = (day: string) => `${day.slice(0, 7)}-01`;
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);

/** A PostgreSQL array literal of numbers, dates, booleans or instants (null allowed), read with `::type[]`. */
function arrayLiteral(values: readonly (string | number | boolean | null)[]): string {
  return `{${values.map((v) => (v === null ? 'NULL' : typeof v === 'boolean' ? (v ? 't' : 'f') : typeof v === 'number' ? String(v) : `"${v}"`)).join(',')}}`;
}

export interface RollupResult {
  closedDays: number;
  recounted: number;
  records: number;
  /** School-day rows the merges rewrote. */
  schoolDaysRewritten: number;
  /** Whether the run vacuumed the school days and their coarser rollups after its merges. */
  vacuumed: boolean;
}

/**
 * Runs the three steps once (see the file's comment); answers what it did. `today` is the business
 * day the days are closed up to (the app's clock).
 */
export async function rollUpAttendance(
  db: Database,
  now: Date,
  options: { batches?: number; batchIds?: number; settleSeconds?: number; vacuumAfterRewrites?: number } = {},
): Promise<RollupResult> {
  const today = formatBusinessDate(now);
  await db.execute(sql`insert into job_watermarks (name, last_id) values (${ATTENDANCE_WATERMARK}, 0) on conflict do nothing`);
  const closedDays = await db.transaction(async (tx) => closeDays(tx, today));
  const recounted = await db.transaction(async (tx) => recountDirty(tx));
  let records = 0;
  let schoolDaysRewritten = 0;
  let batchIds = options.batchIds ?? BATCH_IDS;
  let ids = 0;
  for (let batch = 0; batch < (options.batches ?? BATCHES_PER_RUN) && ids < IDS_PER_RUN; batch += 1) {
    const size = batchIds;
    const merged = await db.transaction(async (tx) => mergeBatch(tx, size, options.settleSeconds ?? SETTLE_SECONDS));
    if (merged === null) break;
    records += merged.records;
    schoolDaysRewritten += merged.schoolDays;
    ids += size;
    if (merged.records > size / 2) batchIds = Math.min(size * 2, Math.max(MAX_BATCH_IDS, options.batchIds ?? 0));
  }
  // Outside any transaction (VACUUM refuses one), after the run's last commit: the space of the rewritten
  // rows is reusable and the visibility map current again, so the reads' index-only scans skip the heap.
  const vacuumed = schoolDaysRewritten >= (options.vacuumAfterRewrites ?? VACUUM_AFTER_REWRITES);
  if (vacuumed) await db.execute(sql`vacuum (analyze) attendance_school_days, attendance_school_periods, attendance_agent_days`);
  return { closedDays, recounted, records, schoolDaysRewritten, vacuumed };
}

async function lockWatermark(tx: Executor): Promise<{ lastId: number; lastDay: string | null }> {
  const [row] = await rowsOf<{ last_id: string | number; last_day: string | null }>(
    tx,
    sql`select last_id, to_char(last_day, 'YYYY-MM-DD') as last_day from job_watermarks where name = ${ATTENDANCE_WATERMARK} for update`,
  );
  return { lastId: Number(row!.last_id), lastDay: row!.last_day };
}

/** Step 1: a row per school and day, and per enrolled student and month, from the last closed day to today. */
async function closeDays(tx: Executor, today: string): Promise<number> {
  const { lastId, lastDay } = await lockWatermark(tx);
  let from: string;
  if (lastDay) from = nextDay(lastDay);
  else {
    // First run: from the first day of last month (its student page is then whole), or from the day of
    // the earliest record not yet read when that is earlier (a backfill: every day it will touch is then
    // closed here at once, not made school by school as batches meet it). Ids follow commit order, not
    // recognition time (a terminal uploads late), so the earliest is read by time.
    const [first] = await rowsOf<{ day: string | null }>(tx, sql`select to_char((min(recognized_at) at time zone 'Asia/Shanghai')::date, 'YYYY-MM-DD') as day from recognition_records where id > ${lastId}`);
    const lastMonth = monthOf(businessDayOf(Date.parse(`${monthOf(today)}T00:00:00Z`) - DAY_MS));
    from = first?.day && first.day < lastMonth ? first.day : lastMonth;
  }
  if (from > today) return 0;
  const days: string[] = [];
  for (let day = from; day <= today; day = nextDay(day)) days.push(day);
  const schools = await rowsOf<{ id: number }>(tx, sql`select id from schools order by id`);
  const isSchoolDay = await schoolDayDecider(tx, null, from, today);
  const schoolIds: number[] = [];
  const dayList: string[] = [];
  const flags: boolean[] = [];
  for (const day of days) {
    for (const { id } of schools) {
      schoolIds.push(id);
      dayList.push(day);
      flags.push(isSchoolDay(id, day));
    }
  }
  await tx.execute(sql`
    insert into attendance_school_days (school_id, day, agent_id, work_day, enrolled)
    select w.school_id, w.day, coalesce(s.agent_id, 0), w.work_day, coalesce(e.n, 0)
    from unnest(${arrayLiteral(schoolIds)}::int[], ${arrayLiteral(dayList)}::date[], ${arrayLiteral(flags)}::bool[]) as w(school_id, day, work_day)
    join schools s on s.id = w.school_id
    left join (select school_id, count(*)::int as n from students where state = 1 group by school_id) e on e.school_id = w.school_id
    on conflict (school_id, day) do update set work_day = excluded.work_day, enrolled = excluded.enrolled, agent_id = excluded.agent_id`);
  const months = [...new Set(days.map(monthOf))];
  for (const month of months) {
    await tx.execute(sql`
      insert into attendance_student_months (student_id, month, school_id)
      select id, ${month}::date, school_id from students where state = 1
      on conflict do nothing`);
  }
  await refreshSchoolMonths(tx, months, null);
  await tx.execute(sql`update job_watermarks set last_day = ${today}::date where name = ${ATTENDANCE_WATERMARK}`);
  return days.length;
}

/**
 * Recounts the school months' school days (closed days only) and students with a month row.
 * One aggregate over both tables' rows, not a join of two aggregates: inside a backfill's transaction the
 * rows it just wrote are not in the statistics yet (a few hundred school days and student months when the
 * tables were last analysed, a million now), and the planner, expecting one group a side, joined them in a
 * nested loop that sorted and grouped the student months again for every school month (40 s for 3,607
 * school months at 1M students; ≈ 3 min a batch at 10M records). A single grouping costs its rows whatever
 * the estimate (docs/performance.md, "The catch-up's school months recounted without a join").
 */
async function refreshSchoolMonths(tx: Executor, months: readonly string[], schoolIds: readonly number[] | null): Promise<void> {
  if (months.length === 0) return;
  const schoolsOf = (column: SQL) => (schoolIds === null ? sql`true` : sql`${column} = any(${arrayLiteral(schoolIds)}::int[])`);
  // A school month is kept for the (school, month)s that have school days, as before.
  await tx.execute(sql`
    insert into attendance_school_months (school_id, month, agent_id, school_days, students)
    select school_id, month, max(agent_id), sum(school_day)::int, sum(student)::int
    from (
      select school_id, date_trunc('month', day)::date as month, agent_id, work_day::int as school_day, 0 as student, true as is_day
      from attendance_school_days
      where date_trunc('month', day)::date = any(${arrayLiteral(months)}::date[]) and ${schoolsOf(sql`school_id`)}
      union all
      select school_id, month, null, 0, 1, false from attendance_student_months
      where month = any(${arrayLiteral(months)}::date[]) and ${schoolsOf(sql`school_id`)}
    ) r
    group by school_id, month
    having bool_or(is_day)
    on conflict (school_id, month) do update set school_days = excluded.school_days, students = excluded.students, agent_id = excluded.agent_id`);
}

/** Step 2: the days a holidayManage write touched get their school-day flag again, and their months recounted. */
async function recountDirty(tx: Executor): Promise<number> {
  const { lastDay } = await lockWatermark(tx);
  const ranges = await rowsOf<{ school_id: number | null; from_day: string; to_day: string }>(
    tx,
    sql`delete from attendance_dirty_ranges returning school_id, to_char(from_day, 'YYYY-MM-DD') as from_day, to_char(to_day, 'YYYY-MM-DD') as to_day`,
  );
  if (ranges.length === 0 || lastDay === null) return 0;
  let recounted = 0;
  for (const range of ranges) {
    const to = range.to_day < lastDay ? range.to_day : lastDay;
    const rows = await rowsOf<{ school_id: number; day: string; work_day: boolean }>(
      tx,
      sql`select school_id, to_char(day, 'YYYY-MM-DD') as day, work_day from attendance_school_days
        where day between ${range.from_day}::date and ${to}::date ${range.school_id === null ? sql`` : sql`and school_id = ${range.school_id}`}`,
    );
    if (rows.length === 0) continue;
    const isSchoolDay = await schoolDayDecider(tx, range.school_id === null ? null : [range.school_id], range.from_day, to);
    const changed = rows.filter((row) => isSchoolDay(row.school_id, row.day) !== row.work_day);
    if (changed.length === 0) continue;
    recounted += changed.length;
    await tx.execute(sql`
      update attendance_school_days d set work_day = not d.work_day
      from unnest(${arrayLiteral(changed.map((r) => r.school_id))}::int[], ${arrayLiteral(changed.map((r) => r.day))}::date[]) as c(school_id, day)
      where d.school_id = c.school_id and d.day = c.day`);
    const schoolIds = [...new Set(changed.map((r) => r.school_id))];
    const months = [...new Set(changed.map((r) => monthOf(r.day)))];
    // The students' school-day figures of those months, from their days and the new flags.
    await tx.execute(sql`
      update attendance_student_months m set
        present_school_days = coalesce(x.present, 0), late_days = coalesce(x.late, 0), left_early_days = coalesce(x.left_early, 0)
      from attendance_student_months m2
      left join (
        select d.student_id, date_trunc('month', d.day)::date as month,
          count(*) filter (where s.work_day)::int as present,
          count(*) filter (where s.work_day and d.late)::int as late,
          count(*) filter (where s.work_day and d.left_early)::int as left_early
        from attendance_student_days d
        join attendance_school_days s on s.school_id = d.school_id and s.day = d.day
        where d.school_id = any(${arrayLiteral(schoolIds)}::int[]) and date_trunc('month', d.day)::date = any(${arrayLiteral(months)}::date[])
        group by 1, 2
      ) x on x.student_id = m2.student_id and x.month = m2.month
      where m.student_id = m2.student_id and m.month = m2.month
        and m2.school_id = any(${arrayLiteral(schoolIds)}::int[]) and m2.month = any(${arrayLiteral(months)}::date[])`);
    await refreshSchoolMonths(tx, months, schoolIds);
  }
  return recounted;
}

/**
 * Step 3: one id range past the watermark merged into the rollups; null when nothing is left to read now.
 * Set-based: the range's records are grouped into student days in the database and merged by one
 * statement (the student days, the school days' counts and the students' months), so a batch costs
 * index work per student day touched, not a round trip of every record through the server.
 */
async function mergeBatch(tx: Executor, batchIds: number, settleSeconds: number): Promise<{ records: number; schoolDays: number } | null> {
  let { lastId } = await lockWatermark(tx);
  let range: { last: string | number | null; unsettled: string | number | null };
  for (;;) {
    [range] = (await rowsOf<typeof range>(
      tx,
      sql`select max(id) as last, min(id) filter (where created_at >= now() - make_interval(secs => ${settleSeconds})) as unsettled
        from recognition_records where id > ${lastId} and id <= ${lastId + batchIds}`,
    )) as [typeof range];
    if (range.last !== null) break;
    // An empty range (ids skipped by rolled-back inserts): jump to the next record, if any.
    const [next] = await rowsOf<{ id: number | null }>(tx, sql`select min(id) as id from recognition_records where id > ${lastId}`);
    if (next?.id === null || next?.id === undefined) return null;
    lastId = Number(next.id) - 1;
  }
  // The range stops before the first record still settling: a lower id may yet be committing.
  const upTo = range.unsettled === null ? Number(range.last) : Number(range.unsettled) - 1;
  if (upTo <= lastId) return null;
  const inRange = sql`id > ${lastId} and id <= ${upTo}`;

  const missing = await rowsOf<{ school_id: number; day: string }>(
    tx,
    sql`select k.school_id, to_char(k.day, 'YYYY-MM-DD') as day
      from (select distinct school_id, (recognized_at at time zone 'Asia/Shanghai')::date as day from recognition_records where ${inRange}) k
      where not exists (select 1 from attendance_school_days d where d.school_id = k.school_id and d.day = k.day)`,
  );
  await ensureSchoolDays(tx, missing.map((row) => ({ schoolId: row.school_id, day: row.day })));

  // A child is present once per day: the batch's first arrival and last departure per student and day,
  // merged with the day's row if it has one; late and left early follow from the merged times. Only the
  // student days that are new or change a flag move the school's day and the student's month. Every
  // part reads the rollups as they were before the statement (one snapshot), and writes each key once.
  const [result] = await rowsOf<{ records: number; school_days: number; added_schools: string | null; added_months: string | null }>(
    tx,
    sql`
    with recs as materialized (
      select id, school_id, person_kind, person_id, direction, success, recognized_at, (recognized_at at time zone 'Asia/Shanghai')::date as day
      from recognition_records where ${inRange}
    ),
    batch as (
      select person_id as student_id, day, (array_agg(school_id order by id))[1] as school_id,
        min(recognized_at) filter (where direction = ${DIRECTION_IN}) as first_in,
        max(recognized_at) filter (where direction = ${DIRECTION_OUT}) as last_out
      from recs where person_kind = ${STUDENT} and person_id is not null and success
      group by person_id, day
    ),
    merged as (
      select b.student_id, b.day, b.school_id, o.student_id is null as is_new,
        coalesce(o.late, false) as was_late, coalesce(o.left_early, false) as was_early,
        least(b.first_in, o.first_in) as first_in, greatest(b.last_out, o.last_out) as last_out
      from batch b left join attendance_student_days o on o.student_id = b.student_id and o.day = b.day
    ),
    judged as materialized (
      select m.*,
        coalesce((m.first_in at time zone 'Asia/Shanghai')::time > ${ATTENDANCE_ARRIVAL_DEADLINE}::time, false) as late,
        coalesce((m.last_out at time zone 'Asia/Shanghai')::time < ${ATTENDANCE_EARLIEST_DEPARTURE}::time, false) as left_early
      from merged m
    ),
    days_written as (
      insert into attendance_student_days (student_id, day, school_id, first_in, last_out, late, left_early)
      select student_id, day, school_id, first_in, last_out, late, left_early from judged
      on conflict (student_id, day) do update set first_in = excluded.first_in, last_out = excluded.last_out, late = excluded.late, left_early = excluded.left_early
    ),
    changes as materialized (
      select j.student_id, j.day, j.school_id, j.is_new, j.late::int - j.was_late::int as late_change,
        j.left_early::int - j.was_early::int as early_change, s.work_day
      from judged j join attendance_school_days s on s.school_id = j.school_id and s.day = j.day
      where j.is_new or j.late <> j.was_late or j.left_early <> j.was_early
    ),
    school_changes as (
      update attendance_school_days d set recognitions = d.recognitions + c.recognitions, failed = d.failed + c.failed,
        present = d.present + c.present, late = d.late + c.late, left_early = d.left_early + c.left_early
      from (
        select r.school_id, r.day, r.recognitions, r.failed, coalesce(x.present, 0) as present, coalesce(x.late, 0) as late, coalesce(x.left_early, 0) as left_early
        from (select school_id, day, count(*)::int as recognitions, count(*) filter (where not success)::int as failed from recs group by 1, 2) r
        left join (
          select school_id, day, count(*) filter (where is_new)::int as present, sum(late_change)::int as late, sum(early_change)::int as left_early
          from changes group by 1, 2
        ) x on x.school_id = r.school_id and x.day = r.day
      ) c
      where d.school_id = c.school_id and d.day = c.day
      returning d.school_id
    ),
    months_written as (
      insert into attendance_student_months as m (student_id, month, school_id, present_days, present_school_days, late_days, left_early_days)
      select student_id, date_trunc('month', day)::date, (array_agg(school_id order by day))[1],
        count(*) filter (where is_new)::int, count(*) filter (where is_new and work_day)::int,
        coalesce(sum(late_change) filter (where work_day), 0)::int, coalesce(sum(early_change) filter (where work_day), 0)::int
      from changes group by student_id, date_trunc('month', day)
      on conflict (student_id, month) do update set present_days = m.present_days + excluded.present_days,
        present_school_days = m.present_school_days + excluded.present_school_days,
        late_days = m.late_days + excluded.late_days, left_early_days = m.left_early_days + excluded.left_early_days
      returning school_id, month, (xmax = 0) as inserted
    )
    select (select count(*) from recs)::int as records, (select count(*) from school_changes)::int as school_days,
      (select string_agg(distinct school_id::text, ',') from months_written where inserted) as added_schools,
      (select string_agg(distinct to_char(month, 'YYYY-MM-DD'), ',') from months_written where inserted) as added_months`,
  );
  // A student the month's close did not know (enrolled since, or a day before the job started).
  if (result?.added_schools && result.added_months) {
    await refreshSchoolMonths(tx, result.added_months.split(','), result.added_schools.split(',').map(Number));
  }
  await tx.execute(sql`update job_watermarks set last_id = ${upTo} where name = ${ATTENDANCE_WATERMARK}`);
  return { records: Number(result?.records ?? 0), schoolDays: Number(result?.school_days ?? 0) };
}

/** The school days a batch touches that no close made (days before the job's first run): made now. */
async function ensureSchoolDays(tx: Executor, keys: readonly { schoolId: number; day: string }[]): Promise<void> {
  if (keys.length === 0) return;
  const missing = await rowsOf<{ school_id: number; day: string }>(
    tx,
    sql`select k.school_id, to_char(k.day, 'YYYY-MM-DD') as day
      from unnest(${arrayLiteral(keys.map((k) => k.schoolId))}::int[], ${arrayLiteral(keys.map((k) => k.day))}::date[]) as k(school_id, day)
      where not exists (select 1 from attendance_school_days d where d.school_id = k.school_id and d.day = k.day)`,
  );
  if (missing.length === 0) return;
  const days = missing.map((row) => row.day).sort();
  const isSchoolDay = await schoolDayDecider(tx, [...new Set(missing.map((row) => row.school_id))], days[0]!, days[days.length - 1]!);
  // Enrolled students counted once per school, not once per missing day (a backfill misses many days).
  const schoolIds = [...new Set(missing.map((row) => row.school_id))];
  await tx.execute(sql`
    insert into attendance_school_days (school_id, day, agent_id, work_day, enrolled)
    select k.school_id, k.day, coalesce(s.agent_id, 0), k.work_day, coalesce(e.n, 0)
    from unnest(${arrayLiteral(missing.map((r) => r.school_id))}::int[], ${arrayLiteral(missing.map((r) => r.day))}::date[],
      ${arrayLiteral(missing.map((r) => isSchoolDay(r.school_id, r.day)))}::bool[]) as k(school_id, day, work_day)
    join schools s on s.id = k.school_id
    left join (select school_id, count(*)::int as n from students where state = 1 and school_id = any(${arrayLiteral(schoolIds)}::int[]) group by school_id) e
      on e.school_id = k.school_id
    on conflict do nothing`);
  const months = [...new Set(missing.map((row) => monthOf(row.day)))];
  await refreshSchoolMonths(tx, months, schoolIds);
}

/** The recurring job: every 10 s on every instance; the watermark's row lock makes them take turns. */
export const attendanceRollupJob: RecurringJob = {
  name: 'attendance-rollup',
  everyMs: 10_000,
  run: (app) => rollUpAttendance(app.db, app.clock.now()),
};
