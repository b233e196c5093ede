/**
 * Keeps the Overview's recognition counter (`recognition_hour_counts`: records per business day,
 * school and hour, Asia/Shanghai) from the recognition records past its `job_watermarks` row, as a
 * recurring job outside the intake's transaction: the intake gains no statement and no hot row to
 * wait on at a gate's busiest minute (docs/decisions.md "The Overview's recognitions from an hourly
 * counter"). Each batch, under the watermark row's lock so instances take turns, adds one id range's
 * records to their hours with one INSERT … SELECT … GROUP BY and moves the mark in the same
 * transaction, so the counter always holds exactly the records with id ≤ the mark; readOverview
 * counts the records past it from the table. Records newer than SETTLE_SECONDS are left for a later
 * run (ids are handed out before commit, so a lower id may still be committing), as the attendance job does.
 */
import { formatBusinessDate, RecognitionRecord } from '@campus/contract';
import { sql } from 'drizzle-orm';
import { rowsOf, type Database, type Executor } from '../db/client.js';
import type { DailyJob } from '../platform/daily-jobs.js';
import type { RecurringJob } from '../platform/recurring-jobs.js';
import { SETTLE_SECONDS } from './attendance-rollup.js';

export const OVERVIEW_COUNTER_WATERMARK = 'overview-counter';
/** Record ids read per transaction: a 10-s run of a busy morning is one batch; a backfill, many short ones. */
const BATCH_IDS = 100_000;
/** Batches per run at most, so one run never holds an instance's job timer for long. */
const BATCHES_PER_RUN = 20;

/** The counter's mark: every record with an id up to it is in the counter, none above it. */
export async function overviewCounterMark(db: Executor): Promise<number> {
  const [row] = await rowsOf<{ last_id: string | number }>(db, sql`select last_id from job_watermarks where name = ${OVERVIEW_COUNTER_WATERMARK}`);
  return row ? Number(row.last_id) : 0;
}

/**
 * Adds the settled records past the mark to the counter, batch by batch, until none is left to read
 * now or `batches` ran; answers the records counted.
 */
export async function advanceOverviewCounter(db: Database, options: { batches?: number; batchIds?: number; settleSeconds?: number } = {}): Promise<number> {
  await db.execute(sql`insert into job_watermarks (name, last_id) values (${OVERVIEW_COUNTER_WATERMARK}, 0) on conflict do nothing`);
  let records = 0;
  for (let batch = 0; batch < (options.batches ?? BATCHES_PER_RUN); batch += 1) {
    const counted = await db.transaction((tx) => countBatch(tx, options.batchIds ?? BATCH_IDS, options.settleSeconds ?? SETTLE_SECONDS));
    if (counted === null) break;
    records += counted;
  }
  return records;
}

/** One id range past the mark into the counter; null when nothing is left to count now. */
async function countBatch(tx: Executor, batchIds: number, settleSeconds: number): Promise<number | null> {
  const [mark] = await rowsOf<{ last_id: string | number }>(tx, sql`select last_id from job_watermarks where name = ${OVERVIEW_COUNTER_WATERMARK} for update`);
  let lastId = Number(mark!.last_id);
  // The range ends before its first record still settling, and at its last record (never at the
  // range's end: ids above the last one read may yet be handed out).
  let upTo: number | null = null;
  for (;;) {
    const [range] = await rowsOf<{ last: string | number | null; unsettled: string | number | null }>(
      tx,
      sql`select max(id) as last, min(id) filter (where created_at >= now() - make_interval(secs => ${settleSeconds})) as unsettled
        from recognition_records where id > ${lastId} and id <= ${lastId + batchIds}`,
    );
    if (range?.last !== null && range?.last !== undefined) {
      upTo = range.unsettled === null ? Number(range.last) : Number(range.unsettled) - 1;
      break;
    }
    // An empty range (ids skipped by rolled-back inserts, or a bulk load's gap): on to the next record, if any.
    const [next] = await rowsOf<{ id: string | number | null }>(tx, sql`select min(id) as id from recognition_records where id > ${lastId}`);
    if (next?.id === null || next?.id === undefined) return null;
    lastId = Number(next.id) - 1;
  }
  if (upTo <= lastId) return null;
  const counted = await rowsOf<{ n: string | number }>(
    tx,
    sql`with hours as (
        select (recognized_at at time zone 'Asia/Shanghai')::date as day, school_id, extract(hour from recognized_at at time zone 'Asia/Shanghai')::smallint as hour, count(*)::int as n
        from recognition_records where id > ${lastId} and id <= ${upTo}
        group by 1, 2, 3),
      added as (
        insert into recognition_hour_counts as c (day, school_id, hour, recognitions) select day, school_id, hour, n from hours
        on conflict (day, school_id, hour) do update set recognitions = c.recognitions + excluded.recognitions)
      select coalesce(sum(n), 0) as n from hours`,
  );
  await tx.execute(sql`update job_watermarks set last_id = ${upTo} where name = ${OVERVIEW_COUNTER_WATERMARK}`);
  return Number(counted[0]!.n);
}

/** The counter's rows of days whose records are past the retention (their partitions are dropped); answers how many. */
export async function purgeExpiredOverviewCounts(db: Database, now: Date): Promise<number> {
  const firstKept = formatBusinessDate(new Date(now.getTime() - RecognitionRecord.log.retentionDays * 86_400_000));
  const result = (await db.execute(sql`delete from recognition_hour_counts where day < ${firstKept}::date returning day`)) as unknown as { rows: unknown[] };
  return result.rows.length;
}

/** Every 10 s on every instance, like the attendance job: the counter trails the intake by the settle time and one run. */
export const overviewCounterJob: RecurringJob = {
  name: 'overview-counter',
  everyMs: 10_000,
  run: (app) => advanceOverviewCounter(app.db),
};

/** Daily: the counter keeps the days the recognition records keep. */
export const overviewCounterRetentionJob: DailyJob = {
  name: 'overview-counter-retention',
  run: (db, now) => purgeExpiredOverviewCounts(db, now),
};
