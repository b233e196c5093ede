/**
 * What the parent app reports about itself (docs/parent-app.md "App use"): a batch of sessions and
 * function uses is checked, rate-limited per parent session and stored in the AppUseEvent log; a job
 * rolls the log up per business day from a watermark (docs/decisions.md "App use rolled up from a
 * watermark"), and another counts registered, activated and paying parents per school.
 */
import { APP_USE_CALLS_PER_MINUTE, APP_USE_KIND, APP_USE_MAX_AGE_DAYS, type AppReportUse } from '@campus/contract';
import { eq, lt, sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Database, type Executor } from '../db/client.js';
import { appUseCallCounts, appUseEvents, jobWatermarks, parents } from '../db/schema/index.js';
import { badRequest, msg, tooManyRequests } from '../platform/errors.js';

const DAY_MS = 86_400_000;
/** The app's clock may run a little ahead of the server's. */
const FUTURE_SLACK_MS = 5 * 60_000;
const OS_TYPE = { android: 1, ios: 2 } as const;
const APP_TYPE = { parent: 1, teacher: 2 } as const;

/** The parent session reporting, as the channel knows it. */
export interface AppUseReporter {
  parentId: number;
  sessionId: number;
}

/**
 * Counts one ReportUse call of the session in its minute (one upsert, shared by every instance) and
 * refuses it (429) beyond APP_USE_CALLS_PER_MINUTE.
 */
export async function countAppUseCall(db: Executor, sessionId: number, now: Date): Promise<void> {
  const minute = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
  const [row] = await db
    .insert(appUseCallCounts)
    .values({ sessionId, minute, calls: 1 })
    .onConflictDoUpdate({ target: [appUseCallCounts.sessionId, appUseCallCounts.minute], set: { calls: sql`${appUseCallCounts.calls} + 1` } })
    .returning({ calls: appUseCallCounts.calls });
  if ((row?.calls ?? 0) > APP_USE_CALLS_PER_MINUTE) throw tooManyRequests(msg('app.useTooOften'));
}

/**
 * Stores a batch of the app's events under the parent's school (its school when they arrive); an
 * event older than APP_USE_MAX_AGE_DAYS or in the future refuses the batch (400 on its `at`).
 */
export async function recordAppUse(db: Executor, reporter: AppUseReporter, batch: AppReportUse, now: Date): Promise<{ accepted: number }> {
  const problems = batch.events.flatMap((event, i) => {
    const at = Date.parse(event.at);
    return at < now.getTime() - APP_USE_MAX_AGE_DAYS * DAY_MS || at > now.getTime() + FUTURE_SLACK_MS ? [{ path: `events.${i}.at`, ...msg('app.useTooOld', { days: APP_USE_MAX_AGE_DAYS }) }] : [];
  });
  if (problems.length > 0) throw badRequest(problems);
  const [parent] = await db.select({ schoolId: parents.schoolId }).from(parents).where(eq(parents.id, reporter.parentId));
  if (!parent) throw new Error(`parent ${reporter.parentId} of a live session is gone`);
  const rows = batch.events.map((event) => {
    const common = { parentId: reporter.parentId, sessionId: reporter.sessionId, schoolId: parent.schoolId, occurredAt: new Date(event.at), createdAt: now };
    return event.kind === 'session'
      ? { ...common, kind: APP_USE_KIND.session, osType: OS_TYPE[event.os], osVersion: event.osVersion, appType: APP_TYPE[event.appType], appVersion: event.appVersion, deviceModel: event.deviceModel }
      : { ...common, kind: APP_USE_KIND.function, functionCode: event.code };
  });
  await db.insert(appUseEvents).values(rows);
  return { accepted: rows.length };
}

/** Events read per run of the rollup (by default): a run stays short however far behind it is; the next run goes on. */
const ROLLUP_BATCH = 20_000;
/** (school, day) pairs recomputed per statement. */
const PAIRS_PER_STATEMENT = 1_000;
/**
 * Events this young are left for the next run: ids are drawn before their insert commits, so a
 * smaller id may still commit after a larger one was read; no insert takes seconds.
 */
const COMMIT_LAG_MS = 10_000;
const WATERMARK = 'app-use';

type Pair = { schoolId: number; day: string };


/** The business day of an event time, and the bounds of a business day as times. */
const businessDay = (column: SQL) => sql`(${column} at time zone 'Asia/Shanghai')::date`;
const dayStart = (day: SQL) => sql`(${day}::timestamp at time zone 'Asia/Shanghai')`;

const valuesOf = (pairs: readonly Pair[]) => sql`(values ${sql.join(
  pairs.map((pair) => sql`(${pair.schoolId}::int, ${pair.day}::date)`),
  sql`, `,
)}) t(school_id, day)`;

/** The events of the pairs' (school, business day)s, through the log's (school, time) index. */
const eventsOfPairs = (pairs: readonly Pair[]) => sql`${valuesOf(pairs)}
  join app_use_events e on e.school_id = t.school_id and e.occurred_at >= ${dayStart(sql`t.day`)} and e.occurred_at < ${dayStart(sql`(t.day + 1)`)}`;

/** Recomputes the day rollups (parents, versions, functions) of the given (school, day)s from the log. */
async function rollUpDays(db: Executor, pairs: readonly Pair[]): Promise<void> {
  for (const table of ['app_use_parent_days', 'app_use_version_days', 'app_use_function_days']) {
    await db.execute(sql`delete from ${sql.identifier(table)} r using ${valuesOf(pairs)} where r.school_id = t.school_id and r.day = t.day`);
  }
  // Relation and the youngest child's grade are read when the day is rolled up: who the parent is now.
  await db.execute(sql`insert into app_use_parent_days (school_id, day, parent_id, relation, grade, sessions, uses)
    select g.school_id, g.day, g.parent_id, coalesce(p.relation, 0), coalesce(k.grade, 0), g.sessions, g.uses
    from (select t.school_id, t.day, e.parent_id,
            count(*) filter (where e.kind = ${APP_USE_KIND.session})::int as sessions,
            count(*) filter (where e.kind = ${APP_USE_KIND.function})::int as uses
          from ${eventsOfPairs(pairs)} group by 1, 2, 3) g
    left join parents p on p.id = g.parent_id
    left join lateral (select min(c.grade)::int as grade from parent_students ps
      join students s on s.id = ps.student_id join school_classes c on c.id = s.class_id
      where ps.parent_id = g.parent_id) k on true`);
  await db.execute(sql`insert into app_use_version_days (school_id, day, os_type, os_version, app_type, app_version, sessions)
    select t.school_id, t.day, e.os_type, e.os_version, e.app_type, e.app_version, count(*)::int
    from ${eventsOfPairs(pairs)} where e.kind = ${APP_USE_KIND.session} group by 1, 2, 3, 4, 5, 6`);
  await db.execute(sql`insert into app_use_function_days (school_id, day, function_code, uses, parents)
    select t.school_id, t.day, e.function_code, count(*)::int, count(distinct e.parent_id)::int
    from ${eventsOfPairs(pairs)} where e.kind = ${APP_USE_KIND.function} group by 1, 2, 3`);
}

/** The periods of the given (school, day)s at each grain, with their ends: `q(grain, school_id, period, period_end)`. */
const periodsOf = (pairs: readonly Pair[], grains: SQL) => sql`(select distinct g.grain, t.school_id, p.period,
      (p.period + case g.grain when 'day' then interval '1 day' when 'week' then interval '7 days' else interval '1 month' end)::date as period_end
    from ${valuesOf(pairs)} cross join (values ${grains}) g(grain)
    cross join lateral (select case g.grain when 'day' then t.day else date_trunc(g.grain, t.day::timestamp)::date end as period) p) q`;

/**
 * Recomputes the period rollups of every day, week and month the given (school, day)s fall in, from
 * the parent-day rollup: distinct active and new parents (app_use_activity), and for months the same
 * per relation and grade, each parent under its last ones of the month (app_use_composition).
 */
async function rollUpPeriods(db: Executor, pairs: readonly Pair[]): Promise<void> {
  const periods = periodsOf(pairs, sql`('day'), ('week'), ('month')`);
  await db.execute(sql`delete from app_use_activity a using ${periods} where a.grain = q.grain and a.school_id = q.school_id and a.period = q.period`);
  await db.execute(sql`insert into app_use_activity (grain, school_id, period, active, new_parents)
    select q.grain, q.school_id, q.period, count(distinct d.parent_id)::int,
      count(distinct d.parent_id) filter (where u.first_day >= q.period and u.first_day < q.period_end)::int
    from ${periods}
    join app_use_parent_days d on d.school_id = q.school_id and d.day >= q.period and d.day < q.period_end
    left join app_use_parents u on u.parent_id = d.parent_id
    group by 1, 2, 3`);
  const months = periodsOf(pairs, sql`('month')`);
  await db.execute(sql`delete from app_use_composition c using ${months} where c.school_id = q.school_id and c.month = q.period`);
  await db.execute(sql`insert into app_use_composition (school_id, month, relation, grade, active, new_parents)
    select l.school_id, l.period, l.relation, l.grade, count(*)::int, count(*) filter (where u.first_day >= l.period and u.first_day < l.period_end)::int
    from (
      select distinct on (q.school_id, q.period, d.parent_id) q.school_id, q.period, q.period_end, d.parent_id, d.relation, d.grade
      from ${months}
      join app_use_parent_days d on d.school_id = q.school_id and d.day >= q.period and d.day < q.period_end
      order by q.school_id, q.period, d.parent_id, d.day desc
    ) l
    left join app_use_parents u on u.parent_id = l.parent_id
    group by 1, 2, 3, 4`);
}

/**
 * One run of the app-use rollup: reads the events past the watermark (at most ROLLUP_BATCH), then
 * recomputes the day and period rollups of the (school, day)s they touch and moves the watermark, in
 * one transaction that holds the watermark's row, so two instances never roll up the same events.
 * Answers how many events it read and groups it recomputed.
 */
export async function rollUpAppUse(db: Database, now: Date, batchSize = ROLLUP_BATCH): Promise<{ events: number; days: number }> {
  return db.transaction(async (tx) => {
    await tx.insert(jobWatermarks).values({ name: WATERMARK, lastId: 0 }).onConflictDoNothing();
    const [mark] = await rowsOf<{ last_id: string | number }>(tx, sql`select last_id from job_watermarks where name = ${WATERMARK} for update`);
    const from = Number(mark?.last_id ?? 0);
    const before = new Date(now.getTime() - COMMIT_LAG_MS);
    const [range] = await rowsOf<{ last: string | number | null; n: string | number }>(
      tx,
      sql`select max(id) as last, count(*) as n from (select id from app_use_events where id > ${from} and created_at < ${before} order by id limit ${batchSize}) b`,
    );
    if (!range || range.last === null) return { events: 0, days: 0 };
    const to = Number(range.last);
    const batch = sql`app_use_events b where b.id > ${from} and b.id <= ${to}`;
    // A parent seen again earlier than its first day (an event kept offline) stops being new in the
    // period of that old first day: that (school, day) is recomputed too.
    const pairs = await rowsOf<{ school_id: number; day: unknown }>(
      tx,
      sql`select distinct b.school_id, ${businessDay(sql`b.occurred_at`)}::text as day from ${batch}
        union
        select d.school_id, d.day::text from (select b.parent_id, min(${businessDay(sql`b.occurred_at`)}) as first_day from ${batch} group by 1) n
          join app_use_parents u on u.parent_id = n.parent_id and u.first_day > n.first_day
          join app_use_parent_days d on d.parent_id = u.parent_id and d.day = u.first_day`,
    );
    await tx.execute(sql`insert into app_use_parents (parent_id, first_day, last_day)
      select b.parent_id, min(${businessDay(sql`b.occurred_at`)}), max(${businessDay(sql`b.occurred_at`)}) from ${batch} group by 1
      on conflict (parent_id) do update set first_day = least(app_use_parents.first_day, excluded.first_day), last_day = greatest(app_use_parents.last_day, excluded.last_day)`);
    const touched: Pair[] = pairs.map((pair) => ({ schoolId: Number(pair.school_id), day: String(pair.day).slice(0, 10) }));
    for (let i = 0; i < touched.length; i += PAIRS_PER_STATEMENT) await rollUpDays(tx, touched.slice(i, i + PAIRS_PER_STATEMENT));
    for (let i = 0; i < touched.length; i += PAIRS_PER_STATEMENT) await rollUpPeriods(tx, touched.slice(i, i + PAIRS_PER_STATEMENT));
    await tx.update(jobWatermarks).set({ lastId: to }).where(eq(jobWatermarks.name, WATERMARK));
    return { events: Number(range.n), days: touched.length };
  });
}

/** Rolls up until the log is read to the end (tests, the demo seed, the benchmark); answers the events read. */
export async function rollUpAllAppUse(db: Database, now: Date, batchSize = ROLLUP_BATCH): Promise<number> {
  let total = 0;
  for (;;) {
    const { events } = await rollUpAppUse(db, now, batchSize);
    if (events === 0) return total;
    total += events;
  }
}

/** Forgets the rate-limit counts of minutes past (the job calls it). */
export async function purgeAppUseCallCounts(db: Executor, now: Date): Promise<void> {
  await db.delete(appUseCallCounts).where(lt(appUseCallCounts.minute, new Date(now.getTime() - 10 * 60_000)));
}

/**
 * Recounts registered (parents of the school), activated (of those, ones that reported app use) and
 * paying (with a payment) parents of every school into app_user_school_counts, in one transaction.
 * Registrations and payments come from many writers, so the counts are redone whole every few
 * minutes (a group-by per table) rather than kept by each of them.
 */
export async function countAppUsers(db: Database, now: Date): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`delete from app_user_school_counts`);
    const inserted = await rowsOf<{ school_id: number }>(
      tx,
      sql`insert into app_user_school_counts (school_id, registered, activated, paying, counted_at)
      select p.school_id, count(*)::int, count(u.parent_id)::int, count(r.parent_id)::int, ${now}
      from parents p left join app_use_parents u on u.parent_id = p.id
      left join (select distinct parent_id from payment_records where parent_id is not null) r on r.parent_id = p.id
      where p.school_id is not null group by p.school_id returning school_id`,
    );
    return inserted.length;
  });
}
