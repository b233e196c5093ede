import { bigint, date, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
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

/**
 * How far each recurring job that reads a log or a table past a mark has got: the last id it read
 * (attendance, app use, the Overview's counter), the last day it closed (attendance), the last instant it swept (terminals'
 * offline periods). One row per job, locked `FOR UPDATE` by the run that moves it, so instances take turns.
 */
export const jobWatermarks = pgTable('job_watermarks', {
  name: text('name').primaryKey(),
  lastId: bigint('last_id', { mode: 'number' }).notNull().default(0),
  lastDay: date('last_day', { mode: 'string' }),
  lastAt: timestamptz('last_at'),
});
