/**
 * The Overview (systemView, the home page's figures, the large screen): today's figures of the
 * caller's scope beside the same figures yesterday and a week ago, each "until the same time of day"
 * so a morning is never compared with a whole day. One statement, every part by an index: recognitions
 * from the hourly counter (`recognition_hour_counts`, overview-counter.ts: at most schools × 24 rows a
 * day) plus, from the table, the records past the counter's mark and those of the window's unfinished
 * hour — by `(recognized_at, school_id)`, a few minutes of records; payments by (school_id, paid_at),
 * terminals by (school_id, offline_at), and terminals online at a past instant from their offline
 * periods (GiST on the period's range: only the periods holding that instant are read). At 10M
 * recognitions no part reads a day's records (docs/live.md, "Overview cost").
 */
import { CHINA_OFFSET_MS, formatBusinessDate, type Overview } from '@campus/contract';
import { sql, type SQL } from 'drizzle-orm';
import { intArray } from '../platform/sql-terms.js';
import type { Database } from '../db/client.js';
import type { SchoolScope } from '../platform/scope.js';
import { OVERVIEW_COUNTER_WATERMARK, overviewCounterMark } from './overview-counter.js';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** Midnight in Shanghai of the business day holding `now`. */
export function businessDayStart(now: Date): Date {
  return new Date(Date.parse(`${formatBusinessDate(now)}T00:00:00Z`) - CHINA_OFFSET_MS);
}

/** `column` within the caller's schools (nothing when the scope is everything). */
function inScope(scope: SchoolScope, column: SQL): SQL {
  if (scope.kind === 'all') return sql`true`;
  return sql`${column} = any(${intArray(scope.schoolIds)})`;
}

interface Window {
  from: Date;
  to: Date;
}

/** Today, yesterday and a week ago, each from its midnight to the same time of day as now. */
function windowsOf(now: Date): [Window, Window, Window] {
  const start = businessDayStart(now);
  const back = (days: number): Window => ({ from: new Date(start.getTime() - days * DAY_MS), to: new Date(now.getTime() - days * DAY_MS) });
  return [back(0), back(1), back(7)];
}

type Triple = [number, number, number];

/** An instant as a statement parameter: ISO text cast, which both drivers pass alike. */
const at = (instant: Date) => sql`${instant.toISOString()}::timestamptz`;

/** Reads the Overview of `scope` at `now`. */
export async function readOverview(db: Database, scope: SchoolScope, now: Date): Promise<Overview> {
  const windows = windowsOf(now);
  const [today, yesterday, lastWeek] = windows;
  const stock = (table: string, schoolColumn: string) => {
    const scoped = inScope(scope, sql.raw(schoolColumn));
    return sql`(select json_build_array(count(*) filter (where created_at <= ${at(today.to)}), count(*) filter (where created_at <= ${at(yesterday.to)}), count(*) filter (where created_at <= ${at(lastWeek.to)})) from ${sql.raw(table)} where ${scoped})`;
  };
  // Students and parents: the school's count kept by triggers (school_stock_counts) less the rows created
  // after each instant, read by created_at — a week of new rows, not a million.
  const keptStock = (table: 'students' | 'parents') => {
    const since = (instant: Date) => sql`count(*) filter (where created_at > ${at(instant)})`;
    return sql`(select json_build_array(k.n - x.today, k.n - x.yesterday, k.n - x.last_week)
      from (select coalesce(sum(${sql.raw(table)}), 0) as n from school_stock_counts where ${inScope(scope, sql`school_id`)}) k,
        (select ${since(today.to)} as today, ${since(yesterday.to)} as yesterday, ${since(lastWeek.to)} as last_week
          from ${sql.raw(table)} where created_at > ${at(lastWeek.to)} and ${inScope(scope, sql`school_id`)}) x)`;
  };
  const perWindow = (body: (window: Window) => SQL) => sql`json_build_array(${sql.join(windows.map(body), sql`, `)})`;
  // Terminals heard from by an instant (a terminal of before the history: since it was added), and those of
  // them in an offline period at it; online then = the first less the second (terminals/offline-periods.ts).
  const seenBy = (instant: Date) => sql`last_seen_at is not null and coalesce(first_seen_at, created_at) <= ${at(instant)}`;
  const offlineAt = (instant: Date) =>
    sql`(select count(*) from terminal_offline_periods p join terminals t on t.id = p.terminal_id
      where tstzrange(p.started_at, p.ended_at) @> ${at(instant)} and ${inScope(scope, sql`t.school_id`)} and ${seenBy(instant)})`;
  // Recognitions: the counter's whole hours, the records past its mark in them, and the records of the
  // window's last, unfinished hour from the table (overview-counter.ts). The mark is read again inside
  // the statement, in the counter's snapshot, so no record is counted twice or missed; `seenMark` (read
  // before, never above it) only lets the planner see that few records are past it.
  const seenMark = await overviewCounterMark(db);
  const mark = sql`coalesce((select last_id from job_watermarks where name = ${OVERVIEW_COUNTER_WATERMARK}), 0)`;
  const hourOf = sql`extract(hour from recognized_at at time zone 'Asia/Shanghai')::int`;
  const records = (from: Date, to: Date) => sql`recognized_at >= ${at(from)} and recognized_at < ${at(to)} and ${inScope(scope, sql`school_id`)}`;
  const parts = windows.map((w) => {
    const hours = Math.floor((w.to.getTime() - w.from.getTime()) / HOUR_MS);
    const lastHour = new Date(w.from.getTime() + hours * HOUR_MS);
    return {
      counted: sql`recognition_hour_counts where day = ${formatBusinessDate(w.from)}::date and hour < ${hours} and ${inScope(scope, sql`school_id`)}`,
      pastMark: sql`recognition_records where id > ${seenMark} and id > ${mark} and ${records(w.from, lastHour)}`,
      lastHour: sql`recognition_records where ${records(lastHour, w.to)}`,
    };
  });
  const todayParts = parts[0]!;
  const totalOf = (part: (typeof parts)[number]) =>
    sql`(select coalesce(sum(recognitions), 0) from ${part.counted}) + (select count(*) from ${part.pastMark}) + (select count(*) from ${part.lastHour})`;
  const recognitions = sql`json_build_array((select coalesce(sum(n), 0) from today_hours), ${totalOf(parts[1]!)}, ${totalOf(parts[2]!)})`;
  const revenue = perWindow(
    (w) => sql`(select coalesce(sum(amount), 0) from payment_records where paid_at >= ${at(w.from)} and paid_at < ${at(w.to)} and ${inScope(scope, sql`school_id`)})`,
  );
  const result = (await db.execute(sql`with today_hours as materialized (
        select school_id, hour::int as hour, recognitions::bigint as n from ${todayParts.counted}
        union all select school_id, ${hourOf}, count(*) from ${todayParts.pastMark} group by 1, 2
        union all select school_id, ${hourOf}, count(*) from ${todayParts.lastHour} group by 1, 2)
    select
      ${stock('schools', 'id')} as schools,
      ${keptStock('students')} as students,
      ${keptStock('parents')} as parents,
      (select json_build_array(count(*) filter (where offline_at > ${at(now)}), count(*) filter (where offline_at is null or offline_at <= ${at(now)}),
          ${sql.join([yesterday, lastWeek].flatMap((w) => [sql`count(*) filter (where created_at <= ${at(w.to)})`, sql`count(*) filter (where ${seenBy(w.to)})`]), sql`, `)})
        from terminals where ${inScope(scope, sql`school_id`)}) as devices,
      json_build_array(${sql.join([yesterday, lastWeek].map((w) => offlineAt(w.to)), sql`, `)}) as periods,
      ${recognitions} as recognitions,
      ${revenue} as revenue,
      (select coalesce(json_agg(json_build_array(hour, n)), '[]'::json) from (
        select hour, sum(n) as n from today_hours group by hour) h) as by_hour,
      (select coalesce(json_agg(json_build_array(t.school_id, s.school_name, t.n) order by t.n desc, t.school_id), '[]'::json) from (
        select school_id, sum(n) as n from today_hours
        group by school_id order by n desc, school_id limit 10) t join schools s on s.id = t.school_id) as top_schools`)) as unknown as {
    rows: {
      schools: Triple;
      students: Triple;
      parents: Triple;
      devices: [number, number, number, number, number, number];
      periods: [number, number];
      recognitions: Triple; revenue: Triple; by_hour: [number, number][]; top_schools: [number, string, number][] }[];
  };
  const row = result.rows[0]!;
  const figure = ([t, y, w]: Triple) => ({ today: Number(t), yesterday: Number(y), lastWeek: Number(w) });
  const [online, offline, existedYesterday, seenYesterday, existedLastWeek, seenLastWeek] = row.devices.map(Number) as [number, number, number, number, number, number];
  const onlineYesterday = seenYesterday - Number(row.periods[0]);
  const onlineLastWeek = seenLastWeek - Number(row.periods[1]);
  const byHour = Array.from({ length: 24 }, () => 0);
  for (const [hour, count] of row.by_hour) byHour[hour] = Number(count);
  return {
    figures: {
      schools: figure(row.schools),
      students: figure(row.students),
      parents: figure(row.parents),
      devicesOnline: { today: online, yesterday: onlineYesterday, lastWeek: onlineLastWeek },
      devicesOffline: { today: offline, yesterday: existedYesterday - onlineYesterday, lastWeek: existedLastWeek - onlineLastWeek },
      recognitions: figure(row.recognitions),
      revenue: figure(row.revenue),
    },
    recognitionsByHour: byHour,
    topSchools: row.top_schools.map(([schoolId, name, recognitions]) => ({ schoolId: Number(schoolId), name, recognitions: Number(recognitions) })),
    at: now.toISOString(),
  };
}
