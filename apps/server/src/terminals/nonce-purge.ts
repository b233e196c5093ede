/** The daily purge of intake nonces too old to be replayed (their timestamps are refused anyway). */
import { lt } from 'drizzle-orm';
import { terminalNonces } from '../db/schema/index.js';
import type { DailyJob } from '../platform/daily-jobs.js';
import { NONCE_RETENTION_MS } from './intake-auth.js';

export const intakeNoncePurgeJob: DailyJob = {
  name: 'intake-nonce-purge',
  run: async (db, now) => {
    const purged = await db.delete(terminalNonces).where(lt(terminalNonces.seenAt, new Date(now.getTime() - NONCE_RETENTION_MS))).returning({ nonce: terminalNonces.nonce });
    return { purged: purged.length };
  },
};
