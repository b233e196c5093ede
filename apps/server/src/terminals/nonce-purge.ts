/**
 * The purge of intake nonces too old to be replayed (their timestamps are refused anyway). Every
 * signed call leaves one (millions a day at full intake), so it runs every few minutes on every
 * instance, in bounded batches: each batch is one short statement, and rows another instance is
 * deleting are skipped (`FOR UPDATE SKIP LOCKED`) instead of waited for.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { terminalNonces } from '../db/schema/index.js';
import type { RecurringJob } from '../platform/recurring-jobs.js';
import { NONCE_RETENTION_MS } from './intake-auth.js';

/** Rows one statement deletes at most: a few seconds' worth of calls at full intake, a short lock each. */
export const NONCE_PURGE_BATCH = 5000;
/** How often each instance purges: about 15,000 nonces pile up in 5 minutes at 50 calls/s. */
export const NONCE_PURGE_EVERY_MS = 5 * 60 * 1000;

/** Deletes the nonces seen before `now` − the retention, `batchSize` at a time until none is left; answers how many. */
export async function purgeIntakeNonces(db: Database, now: Date, batchSize = NONCE_PURGE_BATCH): Promise<number> {
  const before = new Date(now.getTime() - NONCE_RETENTION_MS).toISOString();
  let purged = 0;
  for (;;) {
    const result = (await db.execute(sql`
      delete from ${terminalNonces} where (terminal_id, nonce) in (
        select terminal_id, nonce from ${terminalNonces} where seen_at < ${before}::timestamptz
        order by seen_at limit ${batchSize} for update skip locked)
      returning terminal_id`)) as unknown as { rows: unknown[] };
    // Counted by the rows returned: both drivers answer those alike (a row count they do not).
    const deleted = result.rows.length;
    purged += deleted;
    if (deleted < batchSize) return purged;
  }
}

export const intakeNoncePurgeJob: RecurringJob = {
  name: 'intake-nonce-purge',
  everyMs: NONCE_PURGE_EVERY_MS,
  run: (app) => purgeIntakeNonces(app.db, app.clock.now()),
};
