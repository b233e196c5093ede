import { date, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.js';

/**
 * One row per daily job and day it ran: the instance whose insert succeeds runs the job, every other
 * instance sees the conflict and skips it (docs/decisions.md "Daily jobs claim their day").
 */
export const jobRuns = pgTable(
  'job_runs',
  {
    name: text('name').notNull(),
    runOn: date('run_on', { mode: 'string' }).notNull(),
    startedAt: timestamptz('started_at').notNull(),
    finishedAt: timestamptz('finished_at'),
  },
  (table) => [primaryKey({ columns: [table.name, table.runOn] })],
);
