/**
 * What the parent app reports about itself (docs/parent-app.md "App use"): a batch of sessions and
 * function uses is checked, rate-limited per parent session and stored in the AppUseEvent log; a job
 * rolls the log up per business day from a watermark (docs/decisions.md "App use rolled up from a
 * watermark"), and another counts registered, activated and paying parents per school.
 */
import { APP_USE_CALLS_PER_MINUTE, APP_USE_KIND, APP_USE_MAX_AGE_DAYS, type AppReportUse } from '@campus/contract';
import { eq, lt, sql, type SQL } from 'drizzle-orm';
import { intArray } from '../platform/sql-terms.js';
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

/**
 * The events of the pairs' (school, business day)s, through the log's (school, time) index: one read
 * per pair. As a join (or a lateral read the planner flattens into one; `offset 0` keeps it apart) the
 * planner hashed a few hundred pairs against a scan of the whole log (2 s a run at 1M events).
 */
const eventsOfPairs = (pairs: readonly Pair[]) => sql`${valuesOf(pairs)}
  cross join lateral (select x.parent_id, x.kind, x.function_code, x.os_type, x.os_version, x.app_type, x.app_version from app_use_events x
    where x.school_id = t.school_id and x.occurred_at >= ${dayStart(sql`t.day`)} and x.occurred_at < ${dayStart(sql`(t.day + 1)`)} offset 0) e`;

/**
 * Recomputes the version and function day rollups of the given (school, day)s from the log (a
 * school-day's events through the log's (school, time) index); the statement triggers of migration
 * 0065 move the per-agent sums with them.
 */
async function rollUpDays(db: Executor, pairs: readonly Pair[]): Promise<void> {
  // The pairs' few days through the rollups' day index: matched to the pairs alone, the planner scanned the whole rollup.
  const days = `{${[...new Set(pairs.map((pair) => pair.day))].join(',')}}`;
  for (const table of ['app_use_version_days', 'app_use_function_days']) {
    await db.execute(sql`delete from ${sql.identifier(table)} r using ${valuesOf(pairs)}
      where r.day = any(${days}::date[]) and r.school_id = t.school_id and r.day = t.day`);
  }
  await db.execute(sql`insert into app_use_version_days (school_id, day, os_type, os_version, app_type, app_version, sessions)
    select t.school_id, t.day, e.os_type, e.os_version, e.app_type, e.app_version, count(*)::int
    from ${eventsOfPairs(pairs)} where e.kind = ${APP_USE_KIND.session} group by 1, 2, 3, 4, 5, 6`);
  await db.execute(sql`insert into app_use_function_days (school_id, day, function_code, uses, parents)
    select t.school_id, t.day, e.function_code, count(*)::int, count(distinct e.parent_id)::int
    from ${eventsOfPairs(pairs)} where e.kind = ${APP_USE_KIND.function} group by 1, 2, 3`);
}

/** The period of grain `g.grain` that `day` falls in, and the day after it. */
const periodStart = (day: SQL) => sql`(case g.grain when 'day' then ${day} else date_trunc(g.grain, ${day}::timestamp)::date end)`;
const periodAfter = (start: SQL) => sql`(${start} + case g.grain when 'day' then interval '1 day' when 'week' then interval '7 days' else interval '1 month' end)::date`;
const GRAINS = sql`(values ('day'), ('week'), ('month')) g(grain)`;

/**
 * A (grain, school, period, parent) key's state in app_use_parent_days and app_use_parents as they
 * are now: its last day in the period (null: not active there) with its relation and grade that day,
 * and the parent's first day.
 */
const keyState = sql`k.grain, k.school_id, k.period, k.period_end, k.parent_id, last.day as last_day, last.relation, last.grade, u.first_day
  from app_use_batch_keys k
  left join lateral (select d.day, d.relation, d.grade from app_use_parent_days d
    where d.parent_id = k.parent_id and d.school_id = k.school_id and d.day >= k.period and d.day < k.period_end
    order by d.day desc limit 1) last on true
  left join app_use_parents u on u.parent_id = k.parent_id`;

/**
 * The parent rollups, counted from the batch alone (docs/decisions.md "App use per agent, and periods
 * counted from the batch"): the batch's parent-days are added to app_use_parent_days, and each
 * (grain, school, period, parent) they touch — with, for a parent whose first day moves back, the
 * periods of its old first day — is read before and after; the differences move app_use_activity
 * (active: now in the period and not before; new: the first day in the period) and
 * app_use_composition (the parent leaves its old (relation, grade) of the month for its new one).
 * A run reads a few rows per parent of the batch, however many parents the touched periods hold.
 */
async function countBatchParents(db: Executor, batch: SQL): Promise<void> {
  await db.execute(sql`create temp table app_use_batch_days on commit drop as
    select b.school_id, ${businessDay(sql`b.occurred_at`)} as day, b.parent_id,
      count(*) filter (where b.kind = ${APP_USE_KIND.session})::int as sessions,
      count(*) filter (where b.kind = ${APP_USE_KIND.function})::int as uses
    from ${batch} group by 1, 2, 3`);
  // The keys and their state before the batch; a parent seen again earlier than its first day (an
  // event kept offline) stops being new in the periods of the old first day, wherever it was active.
  await db.execute(sql`create temp table app_use_batch_keys on commit drop as
    with moved as (
      select u.parent_id, u.first_day from (select parent_id, min(day) as first_day from app_use_batch_days group by 1) n
      join app_use_parents u on u.parent_id = n.parent_id and u.first_day > n.first_day
    )
    select distinct g.grain, b.school_id, ${periodStart(sql`b.day`)} as period, ${periodAfter(periodStart(sql`b.day`))} as period_end, b.parent_id
      from app_use_batch_days b cross join ${GRAINS}
    union
    select g.grain, d.school_id, ${periodStart(sql`m.first_day`)}, ${periodAfter(periodStart(sql`m.first_day`))}, m.parent_id
      from moved m cross join ${GRAINS}
      join app_use_parent_days d on d.parent_id = m.parent_id and d.day >= ${periodStart(sql`m.first_day`)} and d.day < ${periodAfter(periodStart(sql`m.first_day`))}`);
  await db.execute(sql`create temp table app_use_batch_before on commit drop as select ${keyState}`);

  await db.execute(sql`insert into app_use_parents (parent_id, first_day, last_day)
    select parent_id, min(day), max(day) from app_use_batch_days group by 1
    on conflict (parent_id) do update set first_day = least(app_use_parents.first_day, excluded.first_day), last_day = greatest(app_use_parents.last_day, excluded.last_day)`);
  // Relation and the youngest child's grade are read as the parent's day is rolled up: who the parent is now.
  await db.execute(sql`insert into app_use_parent_days as pd (school_id, day, parent_id, relation, grade, sessions, uses)
    select b.school_id, b.day, b.parent_id, coalesce(p.relation, 0), coalesce(k.grade, 0), b.sessions, b.uses
    from app_use_batch_days b
    left join parents p on p.id = b.parent_id
    left join lateral (select min(c.grade)::int as grade from parent_students ps
      join students s on s.id = ps.student_id join school_classes c on c.id = s.class_id
      where ps.parent_id = b.parent_id) k on true
    order by 1, 2, 3
    on conflict (school_id, day, parent_id) do update set sessions = pd.sessions + excluded.sessions, uses = pd.uses + excluded.uses,
      relation = excluded.relation, grade = excluded.grade`);

  const isNew = (state: string) => sql.raw(`(${state}.last_day is not null and ${state}.first_day >= ${state}.period and ${state}.first_day < ${state}.period_end)::int`);
  await db.execute(sql`with after as (select ${keyState}),
    changes as (
      select a.grain, a.school_id, a.period, a.period_end, a.parent_id,
        b.last_day as before_day, b.relation as before_relation, b.grade as before_grade, ${isNew('b')} as before_new,
        a.last_day as after_day, a.relation as after_relation, a.grade as after_grade, ${isNew('a')} as after_new
      from after a join app_use_batch_before b on b.grain = a.grain and b.school_id = a.school_id and b.period = a.period and b.parent_id = a.parent_id
    ),
    activity as (
      insert into app_use_activity as r (grain, school_id, period, active, new_parents)
      select grain, school_id, period, sum((after_day is not null)::int - (before_day is not null)::int), sum(after_new - before_new)
      from changes group by 1, 2, 3
      having (sum((after_day is not null)::int - (before_day is not null)::int), sum(after_new - before_new)) <> (0, 0)
      order by 1, 2, 3
      on conflict (grain, school_id, period) do update set active = r.active + excluded.active, new_parents = r.new_parents + excluded.new_parents
      returning 1
    ),
    moves as (
      select school_id, period, before_relation as relation, before_grade as grade, -1 as active, -before_new as new_parents
        from changes where grain = 'month' and before_day is not null
      union all
      select school_id, period, after_relation, after_grade, 1, after_new from changes where grain = 'month' and after_day is not null
    )
    insert into app_use_composition as r (school_id, month, relation, grade, active, new_parents)
    select school_id, period, relation, grade, sum(active), sum(new_parents) from moves group by 1, 2, 3, 4
    having (sum(active), sum(new_parents)) <> (0, 0)
    order by 1, 2, 3, 4
    on conflict (school_id, month, relation, grade) do update set active = r.active + excluded.active, new_parents = r.new_parents + excluded.new_parents`);
  // A (relation, grade) whose last parent of the month moved to another is no group any more.
  await db.execute(sql`delete from app_use_composition c
    using (select distinct school_id, period from app_use_batch_keys where grain = 'month') m
    where c.school_id = m.school_id and c.month = m.period and c.active = 0 and c.new_parents = 0`);
}

/**
 * One run of the app-use rollup: reads the events past the watermark (at most ROLLUP_BATCH), then
 * recomputes the version and function days of the (school, day)s they touch, adds the batch to the
 * parent rollups and moves the watermark, in one transaction that holds the watermark's row, so two
 * instances never roll up the same events and a failed run leaves nothing behind. Answers how many
 * events it read and (school, day)s it touched.
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
    const pairs = await rowsOf<{ school_id: number; day: unknown }>(tx, sql`select distinct b.school_id, ${businessDay(sql`b.occurred_at`)}::text as day from ${batch}`);
    const touched: Pair[] = pairs.map((pair) => ({ schoolId: Number(pair.school_id), day: String(pair.day).slice(0, 10) }));
    // The schools whose agents migration 0065's triggers read, taken first and in id order: a school
    // changing agent meanwhile then waits for this run, or is waited for before any rollup row is
    // written. Taken by the triggers, after the run had written some, the two deadlocked (the change's
    // own trigger moves those rows).
    await tx.execute(sql`select 1 from schools where id = any(${intArray(new Set(touched.map((pair) => pair.schoolId)))}) order by id for share`);
    for (let i = 0; i < touched.length; i += PAIRS_PER_STATEMENT) await rollUpDays(tx, touched.slice(i, i + PAIRS_PER_STATEMENT));
    await countBatchParents(tx, batch);
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
