/**
 * Monthly partitions of log families declared with `log.partition: 'month'` (recognition records):
 * the SQL functions of drizzle/0016 create a month's partition (moving the default partition's rows
 * of that month into it) and drop whole months past the retention — a DROP TABLE instead of deleting
 * millions of rows one by one, with the vacuum that would follow.
 */
import { RESOURCES, isLogFamily, type ResourceDef } from '@campus/contract';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import type { DailyJob } from '../../platform/daily-jobs.js';
import { monthPartitionKey } from '../../db/schema/table.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The first day of the UTC month `monthsAhead` after the month of `at`, as `YYYY-MM-DD`. */
function utcMonthStart(at: Date, monthsAhead = 0): string {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + monthsAhead, 1)).toISOString().slice(0, 10);
}

export function isMonthPartitioned(def: ResourceDef): boolean {
  return monthPartitionKey(def) !== undefined;
}

/** Creates this month's and next month's partitions when missing; answers how many it created. */
export async function ensureMonthPartitions(db: Database, def: ResourceDef, now: Date): Promise<number> {
  const result = (await db.execute(
    sql`select ensure_month_partitions(${def.table}, ${utcMonthStart(now)}::date, ${utcMonthStart(now, 1)}::date) as created`,
  )) as unknown as { rows: { created: number }[] };
  return Number(result.rows[0]!.created);
}

/**
 * Drops the partitions whose whole month is older than the retention; answers their names. The rows
 * of the month the retention boundary falls in stay for the row-by-row purge (log-retention.ts).
 */
export async function dropExpiredMonthPartitions(db: Database, def: ResourceDef, now: Date): Promise<string[]> {
  const retentionDays = def.log?.retentionDays;
  if (!retentionDays) return [];
  const before = new Date(now.getTime() - retentionDays * DAY_MS);
  const result = (await db.execute(sql`select drop_month_partitions_before(${def.table}, ${before}) as name`)) as unknown as {
    rows: { name: string }[];
  };
  return result.rows.map((row) => row.name);
}

/**
 * The daily job keeping one month ahead: a row of next month then never waits in the default
 * partition, and a missed day or two still leaves weeks of margin.
 */
export const logPartitionsJob: DailyJob = {
  name: 'log-partitions',
  run: async (db, now) => {
    const created: Record<string, number> = {};
    for (const def of Object.values(RESOURCES).filter(isLogFamily).filter(isMonthPartitioned)) created[def.name] = await ensureMonthPartitions(db, def, now);
    return created;
  },
};
