/**
 * Rollups the device reports read instead of grouping a million devices per request. Kept in the
 * same transaction as every write to `devices` by statement triggers (migration
 * `*_reports-rollup-triggers.sql`), so they are never stale (docs/decisions.md "Device reports read
 * rollups"). School 0 stands for "no school" (devices in stock), so the keys have no nulls.
 */
import { date, index, integer, primaryKey, smallint, text } from 'drizzle-orm/pg-core';
import { pgTable } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.js';

/** Devices now in each (school, product model, state): productStatistics. */
export const deviceStateCounts = pgTable(
  'device_state_counts',
  {
    schoolId: integer('school_id').notNull(),
    deviceClassCode: text('device_class_code').notNull(),
    state: smallint('state').notNull(),
    devices: integer('devices').notNull(),
  },
  (t) => [primaryKey({ columns: [t.schoolId, t.deviceClassCode, t.state] })],
);

/**
 * Devices stocked (created_at), shipped (shipped_at) and installed (installed_at) per business day
 * (Asia/Shanghai), counted under the device's current school and model: warehousingStatistics.
 */
export const deviceDayCounts = pgTable(
  'device_day_counts',
  {
    day: date('day', { mode: 'string' }).notNull(),
    schoolId: integer('school_id').notNull(),
    deviceClassCode: text('device_class_code').notNull(),
    stocked: integer('stocked').notNull().default(0),
    shipped: integer('shipped').notNull().default(0),
    installed: integer('installed').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.day, t.schoolId, t.deviceClassCode] }),
    // Scoped callers read their schools' days; company-wide callers read the primary key by day.
    index('device_day_counts_school_id_day_idx').on(t.schoolId, t.day),
  ],
);

/**
 * The same counts per (day, agent, model), for company-wide and agent callers of
 * warehousingStatistics: an agent holds hundreds of schools, so this is many times smaller than
 * `device_day_counts` and a three-year range stays within budget. Kept by the device triggers under
 * the agent of the device's current school and moved by a trigger on `schools.agent_id` (migration
 * `*_report-agent-rollup.sql`). Agent 0 stands for none (devices in stock, schools without an agent).
 */
export const deviceAgentDayCounts = pgTable(
  'device_agent_day_counts',
  {
    day: date('day', { mode: 'string' }).notNull(),
    agentId: integer('agent_id').notNull(),
    deviceClassCode: text('device_class_code').notNull(),
    stocked: integer('stocked').notNull().default(0),
    shipped: integer('shipped').notNull().default(0),
    installed: integer('installed').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.day, t.agentId, t.deviceClassCode] }),
    // An agent's caller reads its own days; company-wide callers read the primary key by day.
    index('device_agent_day_counts_agent_id_day_idx').on(t.agentId, t.day),
  ],
);

/**
 * misIdentifyPerson's rollup: per (day, school, person), the failed recognitions of the known person
 * and the successful ones below LOW_SIMILARITY, with the last of them. Kept by a trigger on
 * recognition_records in the intake's own transaction (migration `*_recognition-rollups.sql`), so
 * the report groups a few rows per person instead of millions of records. `day` is the business day
 * (Asia/Shanghai).
 */
export const recognitionPersonMisses = pgTable(
  'recognition_person_misses',
  {
    day: date('day', { mode: 'string' }).notNull(),
    schoolId: integer('school_id').notNull(),
    personKind: smallint('person_kind').notNull(),
    personId: integer('person_id').notNull(),
    personName: text('person_name'),
    failed: integer('failed').notNull().default(0),
    lowSimilarity: integer('low_similarity').notNull().default(0),
    lastAt: timestamptz('last_at').notNull(),
    lastSnapshot: text('last_snapshot'),
  },
  (t) => [
    primaryKey({ columns: [t.day, t.schoolId, t.personKind, t.personId] }),
    // A school's (or a scope's schools') days; company-wide callers read the primary key by day.
    index('recognition_person_misses_school_id_day_idx').on(t.schoolId, t.day),
  ],
);

/**
 * The Overview's recognition counter: records per (business day, school, hour of the day), both in
 * Asia/Shanghai. Kept by the recurring job reports/overview-counter.ts from the records past its
 * `job_watermarks` row, never by the intake; the Overview adds the records past that mark itself, so
 * its figures stay exact (docs/decisions.md "The Overview's recognitions from an hourly counter").
 */
export const recognitionHourCounts = pgTable(
  'recognition_hour_counts',
  {
    day: date('day', { mode: 'string' }).notNull(),
    schoolId: integer('school_id').notNull(),
    hour: smallint('hour').notNull(),
    recognitions: integer('recognitions').notNull(),
  },
  // A day's rows of every school (company-wide) or of a scope's schools, by the primary key alone: the
  // migration adds INCLUDE (recognitions) to it, so a past day is an index-only scan.
  (t) => [primaryKey({ columns: [t.day, t.schoolId, t.hour] })],
);

/**
 * Students and parents per school now, for the Overview's stock figures: kept by statement triggers
 * on both tables in the writing transaction (migration `*_overview-stock-counts.sql`), so a count of
 * a million rows is a thousand-row sum. The Overview subtracts the rows created after each instant
 * it compares, read by their `created_at` indexes.
 */
export const schoolStockCounts = pgTable('school_stock_counts', {
  schoolId: integer('school_id').primaryKey(),
  students: integer('students').notNull().default(0),
  parents: integer('parents').notNull().default(0),
});
