/**
 * The attendance job's backfill behind closed days (the path bench:stats took at scale): the demo's run
 * closed the days from last month on, then records arrive for days before that, out of time order. The
 * batches make those school days and students' months themselves (ensureSchoolDays, a month row per
 * student first seen) and recount the school months inside the merge's transaction.
 */
import { formatBusinessDate } from '@campus/contract';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices, recognitionRecords, students } from '../../src/db/schema/index.js';
import { rollUpAttendance } from '../../src/reports/attendance-rollup.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

type Row = Record<string, unknown>;

let t: TestApp;
const DAY_MS = 86_400_000;
const all = async (query: ReturnType<typeof sql>) => ((await t.db.execute(query)) as unknown as { rows: Row[] }).rows;

/** A deterministic sequence in [0, 1): the records' times and order are the same on every run. */
function sequence(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

const shanghai = (day: string, minutes: number) =>
  new Date(Date.parse(`${day}T00:00:00+08:00`) + minutes * 60_000);

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Every rollup the job keeps, in key order. */
async function rollups() {
  return {
    studentDays: await all(sql`select student_id, to_char(day, 'YYYY-MM-DD') as day, school_id, first_in::text, last_out::text, late, left_early
      from attendance_student_days order by 1, 2`),
    schoolDays: await all(sql`select school_id, to_char(day, 'YYYY-MM-DD') as day, agent_id, work_day, enrolled, recognitions, failed, present, late, left_early
      from attendance_school_days order by 1, 2`),
    studentMonths: await all(sql`select student_id, to_char(month, 'YYYY-MM-DD') as month, school_id, present_days, present_school_days, late_days, left_early_days
      from attendance_student_months order by 1, 2`),
    schoolMonths: await all(sql`select school_id, to_char(month, 'YYYY-MM-DD') as month, agent_id, school_days, students from attendance_school_months order by 1, 2`),
  };
}

const keyed = (rows: Row[], keys: string[]) => new Map(rows.map((row) => [keys.map((k) => String(row[k])).join('|'), row]));

describe('the attendance backfill behind closed days', () => {
  it('merges records before the closed days over several batches into the same rollups as a fresh catch-up, equal to direct counts', async () => {
    // The demo's run (on the test clock's day) closed the days from its last month on; a run now closes
    // the days since. Records for days before those are the backfill.
    await rollUpAttendance(t.db, new Date(), { settleSeconds: 0 });
    const today = formatBusinessDate(new Date());
    const [closed] = await all(sql`select to_char(min(day), 'YYYY-MM-DD') as day from attendance_school_days`);
    const closedFrom = String(closed!.day);
    const dayOf = (offset: number) => formatBusinessDate(new Date(Date.parse(`${closedFrom}T12:00:00+08:00`) + offset * DAY_MS));
    // Days before the close (over two earlier months, school days and weekends alike) and two closed ones.
    const days = [...[-1, -2, -5, -9, -17, -26, -33, -45].map(dayOf), dayOf(3), formatBusinessDate(new Date(Date.now() - 2 * DAY_MS))];
    const [watermark] = await all(sql`select to_char(last_day, 'YYYY-MM-DD') as last_day from job_watermarks where name = 'attendance'`);
    expect(watermark?.last_day).toBe(today);
    expect(closedFrom < today).toBe(true);

    const schools = (await all(sql`select d.school_id from devices d join students s on s.school_id = d.school_id and s.state = 1
      where d.school_id is not null group by d.school_id having count(distinct s.id) >= 6 order by d.school_id limit 3`)).map((r) => Number(r.school_id));
    expect(schools.length).toBe(3);
    const random = sequence(31);
    const records: (typeof recognitionRecords.$inferInsert)[] = [];
    for (const schoolId of schools) {
      const [{ id: deviceId }] = (await t.db.select({ id: devices.id }).from(devices).where(eq(devices.schoolId, schoolId)).limit(1)) as [{ id: number }];
      const kids = (await t.db.select({ id: students.id }).from(students).where(and(eq(students.schoolId, schoolId), eq(students.state, 1))).orderBy(students.id).limit(6)).map((s) => s.id);
      for (const day of days) {
        for (const kid of kids) {
          if (random() < 0.2) continue; // absent that day
          // One to three arrivals around the 08:00 deadline, a departure or two around 16:00, now and then a failed match.
          for (let n = 1 + Math.floor(random() * 3); n > 0; n -= 1) records.push({ recognizedAt: shanghai(day, 7 * 60 + 20 + Math.floor(random() * 60)), schoolId, deviceId, personKind: 1, personId: kid, personName: `学生${kid}`, direction: 1, similarity: 95, eventSerial: 0, success: random() > 0.1 });
          for (let n = 1 + Math.floor(random() * 2); n > 0; n -= 1) records.push({ recognizedAt: shanghai(day, 15 * 60 + 30 + Math.floor(random() * 60)), schoolId, deviceId, personKind: 1, personId: kid, personName: `学生${kid}`, direction: 2, similarity: 95, eventSerial: 0, success: random() > 0.1 });
        }
        records.push({ recognizedAt: shanghai(day, 9 * 60), schoolId, deviceId, personKind: 5, direction: 1, similarity: 40, eventSerial: 0, success: false });
      }
    }
    // Ids out of time order, as a late-uploading terminal's are.
    const shuffled = records.map((r) => ({ r, k: random() })).sort((a, b) => a.k - b.k).map(({ r }, i) => ({ ...r, eventSerial: 9_100_000 + i }));
    await t.db.execute(sql`select ensure_month_partitions('recognition_records', ${days.slice().sort()[0]}::date, ${today}::date)`);
    for (let i = 0; i < shuffled.length; i += 200) await t.db.insert(recognitionRecords).values(shuffled.slice(i, i + 200));

    // Batches of 40, 80 and 160 ids, then a second run for the rest: several transactions, each making days and months of its own.
    const backfill = await rollUpAttendance(t.db, new Date(), { settleSeconds: 0, batchIds: 40, batches: 3 });
    expect(backfill.records).toBeLessThan(shuffled.length);
    const rest = await rollUpAttendance(t.db, new Date(), { settleSeconds: 0, batchIds: 40 });
    expect(backfill.records + rest.records).toBe(shuffled.length);
    const kept = await rollups();

    // Direct counts: the student days from the records, the school days' counts from the records and the
    // student days, the months from the days, the school months from the rows they count.
    const direct = await all(sql`
      select person_id as student_id, to_char((recognized_at at time zone 'Asia/Shanghai')::date, 'YYYY-MM-DD') as day,
        (array_agg(school_id order by id))[1] as school_id,
        (min(recognized_at) filter (where direction = 1))::text as first_in, (max(recognized_at) filter (where direction = 2))::text as last_out,
        coalesce(((min(recognized_at) filter (where direction = 1)) at time zone 'Asia/Shanghai')::time > '08:00', false) as late,
        coalesce(((max(recognized_at) filter (where direction = 2)) at time zone 'Asia/Shanghai')::time < '16:00', false) as left_early
      from recognition_records where person_kind = 1 and person_id is not null and success group by 1, 2 order by 1, 2`);
    expect(kept.studentDays).toEqual(direct);
    const schoolCounts = keyed(await all(sql`
      select r.school_id, to_char(r.day, 'YYYY-MM-DD') as day, r.recognitions, r.failed, coalesce(s.present, 0) as present, coalesce(s.late, 0) as late, coalesce(s.left_early, 0) as left_early
      from (select school_id, (recognized_at at time zone 'Asia/Shanghai')::date as day, count(*)::int as recognitions, count(*) filter (where not success)::int as failed
            from recognition_records group by 1, 2) r
      left join (select school_id, day, count(*)::int as present, count(*) filter (where late)::int as late, count(*) filter (where left_early)::int as left_early
            from attendance_student_days group by 1, 2) s on s.school_id = r.school_id and s.day = r.day`), ['school_id', 'day']);
    for (const [key, counts] of schoolCounts) expect(keyed(kept.schoolDays, ['school_id', 'day']).get(key), key).toMatchObject(counts);
    expect(await all(sql`
      select m.student_id, m.month from attendance_student_months m
      left join (select d.student_id, date_trunc('month', d.day)::date as month, count(*)::int as present, count(*) filter (where s.work_day)::int as present_school,
                   count(*) filter (where s.work_day and d.late)::int as late, count(*) filter (where s.work_day and d.left_early)::int as left_early
                 from attendance_student_days d join attendance_school_days s on s.school_id = d.school_id and s.day = d.day group by 1, 2) x
        on x.student_id = m.student_id and x.month = m.month
      where (m.present_days, m.present_school_days, m.late_days, m.left_early_days) <> (coalesce(x.present, 0), coalesce(x.present_school, 0), coalesce(x.late, 0), coalesce(x.left_early, 0))`)).toEqual([]);
    expect(await all(sql`
      select d.student_id, d.day from attendance_student_days d
      where not exists (select 1 from attendance_student_months m where m.student_id = d.student_id and m.month = date_trunc('month', d.day)::date)`)).toEqual([]);
    const schoolMonths = await all(sql`
      select d.school_id, to_char(d.month, 'YYYY-MM-DD') as month, d.agent_id, d.school_days, coalesce(m.students, 0) as students
      from (select school_id, date_trunc('month', day)::date as month, max(agent_id) as agent_id, count(*) filter (where work_day)::int as school_days
            from attendance_school_days group by 1, 2) d
      left join (select school_id, month, count(*)::int as students from attendance_student_months group by 1, 2) m on m.school_id = d.school_id and m.month = d.month
      order by 1, 2`);
    expect(kept.schoolMonths).toEqual(schoolMonths);
    expect(kept.schoolMonths.filter((row) => String(row.month) < closedFrom && schools.includes(Number(row.school_id))).length).toBeGreaterThanOrEqual(3);

    // A fresh catch-up over the same records (rollups emptied, watermark gone): it closes every day from the
    // earliest record and every enrolled student's month, so it has more rows, each extra one without records.
    await t.db.execute(sql`truncate attendance_student_days, attendance_school_days, attendance_student_months, attendance_school_months`);
    await t.db.execute(sql`delete from job_watermarks where name = 'attendance'`);
    const fresh = await rollUpAttendance(t.db, new Date(), { settleSeconds: 0, batchIds: 1_000_000 });
    expect(fresh.records).toBe(Number((await all(sql`select count(*)::int as n from recognition_records`))[0]!.n));
    const anew = await rollups();
    expect(anew.studentDays).toEqual(kept.studentDays);
    const freshDays = keyed(anew.schoolDays, ['school_id', 'day']);
    for (const [key, row] of keyed(kept.schoolDays, ['school_id', 'day'])) expect(freshDays.get(key), key).toEqual(row);
    const keptKeys = new Set(keyed(kept.schoolDays, ['school_id', 'day']).keys());
    expect(anew.schoolDays.filter((row) => !keptKeys.has(`${String(row.school_id)}|${String(row.day)}`) && Number(row.recognitions) !== 0)).toEqual([]);
    const recognised = (rows: Row[]) => rows.filter((row) => Number(row.present_days) > 0);
    expect(recognised(anew.studentMonths)).toEqual(recognised(kept.studentMonths));
  });
});
