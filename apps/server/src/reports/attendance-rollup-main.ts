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
import { ATTENDANCE_ARRIVAL_DEADLINE, ATTENDANCE_EARLIEST_DEPARTURE, formatBusinessDate } from '@campus/contract';
import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Database, type Executor } from '../db/client.js';
import { schoolDayDecider } from '../platform/school-days.js';
import type { RecurringJob } from '../platform/recurring-jobs.js';

export const ATTENDANCE_WATERMARK = 'attendance';
/** Record ids read per transaction. */
const BATCH_IDS = 50_000;
/** Batches per run at most, so one run never holds an instance's job timer for long. */
const BATCHES_PER_RUN = 40;
/** A record younger than this (by the database's clock) waits for the next run. */
export const SETTLE_SECONDS = 30;
const STUDENT = 1;
const DIRECTION_IN = 1;
const DIRECTION_OUT = 2;
const DAY_MS = 86_400_000;
// China keeps one offset all year (no summer time): a business day and a time of day are plain arithmetic.
const SHANGHAI_OFFSET_MS = 8 * 3_600_000;

const secondsOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 3600 + Number(hhmm.slice(3, 5)) * 60;
const ARRIVAL_DEADLINE_S = secondsOf(ATTENDANCE_ARRIVAL_DEADLINE);
const EARLIEST_DEPARTURE_S = secondsOf(ATTENDANCE_EARLIEST_DEPARTURE);

const businessDayOf = (ms: number) => new Date(ms + SHANGHAI_OFFSET_MS).toISOString().slice(0, 10);
const secondOfDay = (ms: number) => Math.floor((((ms + SHANGHAI_OFFSET_MS) % DAY_MS) + DAY_MS) % DAY_MS / 1000);
const monthOf = (day: string) => `${day.slice(0, 7)}-01`;
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);

/** Late: the first arrival after the deadline. Left early: the last departure before the earliest time. */
export const isLate = (firstIn: number | null) => firstIn !== null && secondOfDay(firstIn) > ARRIVAL_DEADLINE_S;
export const isLeftEarly = (lastOut: number | null) => lastOut !== null && secondOfDay(lastOut) < EARLIEST_DEPARTURE_S;

/** A PostgreSQL array literal of numbers, dates, booleans or instants (null allowed), read with `::type[]`. */
function arrayLiteral(values: readonly (string | number | boolean | null)[]): string {
  return `{${values.map((v) => (v === null ? 'NULL' : typeof v === 'boolean' ? (v ? 't' : 'f') : typeof v === 'number' ? String(v) : `"${v}"`)).join(',')}}`;
}

export interface RollupResult {
  closedDays: number;
  recounted: number;
  records: number;
}

/**
 * Runs the three steps once (see the file's comment); answers what it did. `today` is the business
 * day the days are closed up to (the app's clock).
 */
export async function rollUpAttendance(db: Database, now: Date, options: { batches?: number; batchIds?: number; settleSeconds?: number } = {}): Promise<RollupResult> {
  const today = formatBusinessDate(now);
  await db.execute(sql`insert into job_watermarks (name, last_id) values (${ATTENDANCE_WATERMARK}, 0) on conflict do nothing`);
  const closedDays = await db.transaction(async (tx) => closeDays(tx, today));
  const recounted = await db.transaction(async (tx) => recountDirty(tx));
  let records = 0;
  for (let batch = 0; batch < (options.batches ?? BATCHES_PER_RUN); batch += 1) {
    const read = await db.transaction(async (tx) => mergeBatch(tx, options.batchIds ?? BATCH_IDS, options.settleSeconds ?? SETTLE_SECONDS));
    if (read === null) break;
    records += read;
  }
  return { closedDays, recounted, records };
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
    // the first record not yet read when that is earlier (a backfill).
    const [first] = await rowsOf<{ day: string | null }>(tx, sql`select to_char((recognized_at at time zone 'Asia/Shanghai')::date, 'YYYY-MM-DD') as day from recognition_records where id > ${lastId} order by id limit 1`);
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

/** Recounts the school months' school days (closed days only) and students with a month row. */
async function refreshSchoolMonths(tx: Executor, months: readonly string[], schoolIds: readonly number[] | null): Promise<void> {
  if (months.length === 0) return;
  const schoolsOf = (column: SQL) => (schoolIds === null ? sql`true` : sql`${column} = any(${arrayLiteral(schoolIds)}::int[])`);
  await tx.execute(sql`
    insert into attendance_school_months (school_id, month, agent_id, school_days, students)
    select d.school_id, d.month, d.agent_id, d.school_days, coalesce(m.students, 0)
    from (
      select school_id, date_trunc('month', day)::date as month, max(agent_id) as agent_id, count(*) filter (where work_day)::int as school_days
      from attendance_school_days
      where date_trunc('month', day)::date = any(${arrayLiteral(months)}::date[]) and ${schoolsOf(sql`school_id`)}
      group by 1, 2
    ) d
    left join (
      select school_id, month, count(*)::int as students from attendance_student_months
      where month = any(${arrayLiteral(months)}::date[]) and ${schoolsOf(sql`school_id`)} group by 1, 2
    ) m on m.school_id = d.school_id and m.month = d.month
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

interface RecordRow {
  id: number;
  at: string | Date;
  school_id: number;
  person_kind: number;
  person_id: number | null;
  direction: number;
  success: boolean;
  settled: boolean;
}

interface StudentDay {
  studentId: number;
  day: string;
  schoolId: number;
  firstIn: number | null;
  lastOut: number | null;
}

const minOf = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.min(a, b));
const maxOf = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));
const isoOrNull = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** Step 3: one id range past the watermark merged into the rollups; null when nothing is left to read now. */
async function mergeBatch(tx: Executor, batchIds: number, settleSeconds: number): Promise<number | null> {
  let { lastId } = await lockWatermark(tx);
  let records: RecordRow[] = [];
  for (;;) {
    records = await rowsOf<RecordRow>(
      tx,
      sql`select id, recognized_at as at, school_id, person_kind, person_id, direction, success,
          created_at < now() - make_interval(secs => ${settleSeconds}) as settled
        from recognition_records where id > ${lastId} and id <= ${lastId + batchIds} order by id`,
    );
    if (records.length > 0) break;
    // An empty range (ids skipped by rolled-back inserts): jump to the next record, if any.
    const [next] = await rowsOf<{ id: number | null }>(tx, sql`select min(id) as id from recognition_records where id > ${lastId}`);
    if (next?.id === null || next?.id === undefined) return null;
    lastId = Number(next.id) - 1;
  }
  const firstUnsettled = records.findIndex((row) => !row.settled);
  if (firstUnsettled === 0) return null;
  if (firstUnsettled > 0) records = records.slice(0, firstUnsettled);

  const studentDays = new Map<string, StudentDay>();
  const schoolDayCounts = new Map<string, { schoolId: number; day: string; recognitions: number; failed: number }>();
  for (const row of records) {
    const ms = new Date(row.at).getTime();
    const day = businessDayOf(ms);
    const schoolKey = `${row.school_id}|${day}`;
    const counts = schoolDayCounts.get(schoolKey) ?? { schoolId: row.school_id, day, recognitions: 0, failed: 0 };
    counts.recognitions += 1;
    if (!row.success) counts.failed += 1;
    schoolDayCounts.set(schoolKey, counts);
    if (row.person_kind !== STUDENT || row.person_id === null || !row.success) continue;
    const key = `${row.person_id}|${day}`;
    const entry = studentDays.get(key) ?? { studentId: row.person_id, day, schoolId: row.school_id, firstIn: null, lastOut: null };
    if (row.direction === DIRECTION_IN) entry.firstIn = minOf(entry.firstIn, ms);
    if (row.direction === DIRECTION_OUT) entry.lastOut = maxOf(entry.lastOut, ms);
    studentDays.set(key, entry);
  }

  const keys = [...schoolDayCounts.values()];
  await ensureSchoolDays(tx, keys);
  const flags = await rowsOf<{ school_id: number; day: string; work_day: boolean }>(
    tx,
    sql`select d.school_id, to_char(d.day, 'YYYY-MM-DD') as day, d.work_day from attendance_school_days d
      join unnest(${arrayLiteral(keys.map((k) => k.schoolId))}::int[], ${arrayLiteral(keys.map((k) => k.day))}::date[]) as k(school_id, day)
        on d.school_id = k.school_id and d.day = k.day`,
  );
  const workDay = new Map(flags.map((row) => [`${row.school_id}|${row.day}`, row.work_day]));

  const days = [...studentDays.values()];
  const old = days.length === 0 ? [] : await rowsOf<{ student_id: number; day: string; first_in: string | Date | null; last_out: string | Date | null; late: boolean; left_early: boolean }>(
    tx,
    sql`select d.student_id, to_char(d.day, 'YYYY-MM-DD') as day, d.first_in, d.last_out, d.late, d.left_early from attendance_student_days d
      join unnest(${arrayLiteral(days.map((d) => d.studentId))}::int[], ${arrayLiteral(days.map((d) => d.day))}::date[]) as k(student_id, day)
        on d.student_id = k.student_id and d.day = k.day`,
  );
  const oldByKey = new Map(old.map((row) => [`${row.student_id}|${row.day}`, row]));
  const schoolDeltas = new Map<string, { present: number; late: number; leftEarly: number }>();
  const monthDeltas = new Map<string, { studentId: number; month: string; schoolId: number; presentDays: number; presentSchoolDays: number; lateDays: number; leftEarlyDays: number }>();
  const merged: (StudentDay & { late: boolean; leftEarly: boolean })[] = [];
  for (const entry of days) {
    const before = oldByKey.get(`${entry.studentId}|${entry.day}`);
    const firstIn = minOf(entry.firstIn, before?.first_in ? new Date(before.first_in).getTime() : null);
    const lastOut = maxOf(entry.lastOut, before?.last_out ? new Date(before.last_out).getTime() : null);
    const late = isLate(firstIn);
    const leftEarly = isLeftEarly(lastOut);
    const schoolId = entry.schoolId;
    merged.push({ ...entry, firstIn, lastOut, late, leftEarly });
    const isNew = before === undefined;
    const lateChange = Number(late) - Number(before?.late ?? false);
    const earlyChange = Number(leftEarly) - Number(before?.left_early ?? false);
    if (!isNew && lateChange === 0 && earlyChange === 0) continue;
    const schoolKey = `${schoolId}|${entry.day}`;
    const delta = schoolDeltas.get(schoolKey) ?? { present: 0, late: 0, leftEarly: 0 };
    delta.present += Number(isNew);
    delta.late += lateChange;
    delta.leftEarly += earlyChange;
    schoolDeltas.set(schoolKey, delta);
    const isSchoolDay = workDay.get(schoolKey) ?? false;
    const monthKey = `${entry.studentId}|${monthOf(entry.day)}`;
    const month = monthDeltas.get(monthKey) ?? { studentId: entry.studentId, month: monthOf(entry.day), schoolId, presentDays: 0, presentSchoolDays: 0, lateDays: 0, leftEarlyDays: 0 };
    month.presentDays += Number(isNew);
    if (isSchoolDay) {
      month.presentSchoolDays += Number(isNew);
      month.lateDays += lateChange;
      month.leftEarlyDays += earlyChange;
    }
    monthDeltas.set(monthKey, month);
  }

  if (merged.length > 0) {
    await tx.execute(sql`
      insert into attendance_student_days (student_id, day, school_id, first_in, last_out, late, left_early)
      select * from unnest(${arrayLiteral(merged.map((d) => d.studentId))}::int[], ${arrayLiteral(merged.map((d) => d.day))}::date[],
        ${arrayLiteral(merged.map((d) => d.schoolId))}::int[], ${arrayLiteral(merged.map((d) => isoOrNull(d.firstIn)))}::timestamptz[],
        ${arrayLiteral(merged.map((d) => isoOrNull(d.lastOut)))}::timestamptz[], ${arrayLiteral(merged.map((d) => d.late))}::bool[],
        ${arrayLiteral(merged.map((d) => d.leftEarly))}::bool[])
      on conflict (student_id, day) do update set first_in = excluded.first_in, last_out = excluded.last_out, late = excluded.late, left_early = excluded.left_early`);
  }
  // The day's counts and the students' changes, one update per school day touched.
  const schoolRows = keys.map((k) => {
    const delta = schoolDeltas.get(`${k.schoolId}|${k.day}`) ?? { present: 0, late: 0, leftEarly: 0 };
    return { ...k, ...delta };
  });
  await tx.execute(sql`
    update attendance_school_days d set recognitions = d.recognitions + c.recognitions, failed = d.failed + c.failed,
      present = d.present + c.present, late = d.late + c.late, left_early = d.left_early + c.left_early
    from unnest(${arrayLiteral(schoolRows.map((r) => r.schoolId))}::int[], ${arrayLiteral(schoolRows.map((r) => r.day))}::date[],
      ${arrayLiteral(schoolRows.map((r) => r.recognitions))}::int[], ${arrayLiteral(schoolRows.map((r) => r.failed))}::int[],
      ${arrayLiteral(schoolRows.map((r) => r.present))}::int[], ${arrayLiteral(schoolRows.map((r) => r.late))}::int[],
      ${arrayLiteral(schoolRows.map((r) => r.leftEarly))}::int[]) as c(school_id, day, recognitions, failed, present, late, left_early)
    where d.school_id = c.school_id and d.day = c.day`);
  const months = [...monthDeltas.values()];
  if (months.length > 0) {
    const inserted = await rowsOf<{ school_id: number; month: string }>(
      tx,
      sql`
      insert into attendance_student_months as m (student_id, month, school_id, present_days, present_school_days, late_days, left_early_days)
      select * from unnest(${arrayLiteral(months.map((m) => m.studentId))}::int[], ${arrayLiteral(months.map((m) => m.month))}::date[],
        ${arrayLiteral(months.map((m) => m.schoolId))}::int[], ${arrayLiteral(months.map((m) => m.presentDays))}::int[],
        ${arrayLiteral(months.map((m) => m.presentSchoolDays))}::int[], ${arrayLiteral(months.map((m) => m.lateDays))}::int[],
        ${arrayLiteral(months.map((m) => m.leftEarlyDays))}::int[])
      on conflict (student_id, month) do update set present_days = m.present_days + excluded.present_days,
        present_school_days = m.present_school_days + excluded.present_school_days,
        late_days = m.late_days + excluded.late_days, left_early_days = m.left_early_days + excluded.left_early_days
      returning school_id, to_char(month, 'YYYY-MM-DD') as month, (xmax = 0) as inserted`,
    );
    // A student the month's close did not know (enrolled since, or a day before the job started).
    const added = (inserted as unknown as { school_id: number; month: string; inserted: boolean }[]).filter((row) => row.inserted);
    if (added.length > 0) await refreshSchoolMonths(tx, [...new Set(added.map((row) => row.month))], [...new Set(added.map((row) => row.school_id))]);
  }
  const lastRead = records[records.length - 1]!.id;
  await tx.execute(sql`update job_watermarks set last_id = ${lastRead} where name = ${ATTENDANCE_WATERMARK}`);
  return records.length;
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
  await tx.execute(sql`
    insert into attendance_school_days (school_id, day, agent_id, work_day, enrolled)
    select k.school_id, k.day, coalesce(s.agent_id, 0), k.work_day,
      (select count(*)::int from students st where st.school_id = k.school_id and st.state = 1)
    from unnest(${arrayLiteral(missing.map((r) => r.school_id))}::int[], ${arrayLiteral(missing.map((r) => r.day))}::date[],
      ${arrayLiteral(missing.map((r) => isSchoolDay(r.school_id, r.day)))}::bool[]) as k(school_id, day, work_day)
    join schools s on s.id = k.school_id
    on conflict do nothing`);
  const months = [...new Set(missing.map((row) => monthOf(row.day)))];
  await refreshSchoolMonths(tx, months, [...new Set(missing.map((row) => row.school_id))]);
}

/** The recurring job: every 10 s on every instance; the watermark's row lock makes them take turns. */
export const attendanceRollupJob: RecurringJob = {
  name: 'attendance-rollup',
  everyMs: 10_000,
  run: (app) => rollUpAttendance(app.db, app.clock.now()),
};
