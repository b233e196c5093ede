/**
 * Rollups of what the parent app reports about itself (app_use_events, the AppUseEvent log): the
 * app-use statistics read these, never the log. The rollup job (parents/app-use.ts) reads the events
 * past its watermark, recomputes the version and function days of the (school, day)s they touch and
 * adds the batch's parents to the parent and period rollups (docs/decisions.md "App use rolled up
 * from a watermark", "App use per agent, and periods counted from the batch"). Days are business
 * days (Asia/Shanghai). Relation and grade 0 stand for "not known", so the keys have no nulls.
 */
import { date, index, integer, pgTable, primaryKey, smallint, text } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.js';

/** One row per parent active on a day at a school, with its relation and its youngest child's grade that day. */
export const appUseParentDays = pgTable(
  'app_use_parent_days',
  {
    schoolId: integer('school_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    parentId: integer('parent_id').notNull(),
    relation: smallint('relation').notNull(),
    grade: smallint('grade').notNull(),
    sessions: integer('sessions').notNull(),
    uses: integer('uses').notNull(),
  },
  // A parent's days, for the job's "already active in this period?" and "first day moved" look-ups.
  (t) => [primaryKey({ columns: [t.schoolId, t.day, t.parentId] }), index('app_use_parent_days_parent_id_day_idx').on(t.parentId, t.day)],
);

/** Each parent's first and last day of app use: "new" parents of a period are those whose first day falls in it. */
export const appUseParents = pgTable('app_use_parents', {
  parentId: integer('parent_id').primaryKey(),
  firstDay: date('first_day', { mode: 'string' }).notNull(),
  lastDay: date('last_day', { mode: 'string' }).notNull(),
});

/** Sessions per day, school, OS and app version: uaStatistics. */
export const appUseVersionDays = pgTable(
  'app_use_version_days',
  {
    schoolId: integer('school_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    osType: smallint('os_type').notNull(),
    osVersion: text('os_version').notNull(),
    appType: smallint('app_type').notNull(),
    appVersion: text('app_version').notNull(),
    sessions: integer('sessions').notNull(),
  },
  (t) => [primaryKey({ columns: [t.schoolId, t.day, t.osType, t.osVersion, t.appType, t.appVersion] }), index('app_use_version_days_day_idx').on(t.day)],
);

/** Uses per day, school and function, and how many parents used it that day: funStatistics, functionalTrends. */
export const appUseFunctionDays = pgTable(
  'app_use_function_days',
  {
    schoolId: integer('school_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    functionCode: text('function_code').notNull(),
    uses: integer('uses').notNull(),
    parents: integer('parents').notNull(),
  },
  (t) => [primaryKey({ columns: [t.schoolId, t.day, t.functionCode] }), index('app_use_function_days_day_idx').on(t.day)],
);

/**
 * The two day rollups above summed per agent of the school (agent 0: a school without one), for
 * company-wide and agent callers: a few rows per day instead of one per school. Kept by statement
 * triggers on the per-school rollups and moved by a trigger on schools.agent_id (migration 0065).
 */
export const appUseAgentVersionDays = pgTable(
  'app_use_agent_version_days',
  {
    day: date('day', { mode: 'string' }).notNull(),
    agentId: integer('agent_id').notNull(),
    osType: smallint('os_type').notNull(),
    osVersion: text('os_version').notNull(),
    appType: smallint('app_type').notNull(),
    appVersion: text('app_version').notNull(),
    sessions: integer('sessions').notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.agentId, t.osType, t.osVersion, t.appType, t.appVersion] }), index('app_use_agent_version_days_agent_id_day_idx').on(t.agentId, t.day)],
);

/** app_use_function_days per agent (see app_use_agent_version_days). */
export const appUseAgentFunctionDays = pgTable(
  'app_use_agent_function_days',
  {
    day: date('day', { mode: 'string' }).notNull(),
    agentId: integer('agent_id').notNull(),
    functionCode: text('function_code').notNull(),
    uses: integer('uses').notNull(),
    parents: integer('parents').notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.agentId, t.functionCode] }), index('app_use_agent_function_days_agent_id_day_idx').on(t.agentId, t.day)],
);

/**
 * Distinct active and new parents per period (day, week from Monday, month) and school: userActTable.
 * A parent counts once per period and school, so the rows of a period add up.
 */
export const appUseActivity = pgTable(
  'app_use_activity',
  {
    grain: text('grain').notNull(),
    schoolId: integer('school_id').notNull(),
    period: date('period', { mode: 'string' }).notNull(),
    active: integer('active').notNull(),
    newParents: integer('new_parents').notNull(),
  },
  (t) => [primaryKey({ columns: [t.grain, t.schoolId, t.period] }), index('app_use_activity_grain_period_idx').on(t.grain, t.period)],
);

/**
 * The month's active and new parents per school, relation and youngest child's grade:
 * userStyleStatistics. A parent counts once, under its last relation and grade of the month.
 */
export const appUseComposition = pgTable(
  'app_use_composition',
  {
    schoolId: integer('school_id').notNull(),
    month: date('month', { mode: 'string' }).notNull(),
    relation: smallint('relation').notNull(),
    grade: smallint('grade').notNull(),
    active: integer('active').notNull(),
    newParents: integer('new_parents').notNull(),
  },
  (t) => [primaryKey({ columns: [t.schoolId, t.month, t.relation, t.grade] }), index('app_use_composition_month_idx').on(t.month)],
);

/** Registered, activated (used the app) and paying parents per school: userStatistics. */
export const appUserSchoolCounts = pgTable('app_user_school_counts', {
  schoolId: integer('school_id').primaryKey(),
  registered: integer('registered').notNull(),
  activated: integer('activated').notNull(),
  paying: integer('paying').notNull(),
  countedAt: timestamptz('counted_at').notNull(),
});

/** Calls of ReportUse per parent session and minute: the rate limit, shared by every instance. */
export const appUseCallCounts = pgTable(
  'app_use_call_counts',
  {
    sessionId: integer('session_id').notNull(),
    minute: timestamptz('minute').notNull(),
    calls: integer('calls').notNull(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.minute] }), index('app_use_call_counts_minute_idx').on(t.minute)],
);
