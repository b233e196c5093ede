/** Retention of log families: rows older than `retentionDays` are deleted by a daily job, in batches. */
import { RESOURCES, isLogFamily, type ResourceDef } from '@campus/contract';
import { inArray, lt } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import type { DailyJob } from '../../platform/daily-jobs.js';
import { dropExpiredMonthPartitions } from './log-partitions.js';
import { logDefOf } from './log.js';
import { columnOf } from './query.js';
import { tableOf } from './registry.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Rows per delete: short transactions, so writers of the log never wait long for the purge. */
const PURGE_BATCH = 5000;

/**
 * Deletes the rows of one log family older than its retention; answers how many rows it deleted one
 * by one (a partitioned family first drops its whole expired months, uncounted).
 */
export async function purgeExpiredRows(db: Database, def: ResourceDef, now: Date): Promise<number> {
  const { retentionDays, timeField } = logDefOf(def);
  if (!retentionDays) return 0;
  await dropExpiredMonthPartitions(db, def, now);
  const table = tableOf(def);
  const id = columnOf(table, 'id');
  const expired = lt(columnOf(table, timeField), new Date(now.getTime() - retentionDays * DAY_MS));
  let purged = 0;
  for (;;) {
    const batch = db.select({ id }).from(table).where(expired).limit(PURGE_BATCH);
    const deleted = await db.delete(table).where(inArray(id, batch)).returning({ id });
    purged += deleted.length;
    if (deleted.length < PURGE_BATCH) return purged;
  }
}

/** The daily purge of every log family that declares a retention. */
export const logRetentionJob: DailyJob = {
  name: 'log-retention',
  run: async (db, now) => {
    const purged: Record<string, number> = {};
    for (const def of Object.values(RESOURCES).filter(isLogFamily)) purged[def.name] = await purgeExpiredRows(db, def, now);
    return purged;
  },
};
