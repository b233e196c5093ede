/**
 * Attendance rollups (schoolStatistics, stuMonthStatistic, the cockpit): kept by the recurring job
 * statistics/attendance-rollup.ts from the recognition records past a watermark, outside the
 * intake's transaction (docs/decisions.md "Attendance rollups"). Days are business days (Asia/Shanghai).
 */
import { boolean, date, index, integer, pgTable, primaryKey, serial, text } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.js';

/** One row per student and day they were recognised: the first arrival and the last departure. */
export const attendanceStudentDays = pgTable(
  'attendance_student_days',
  {
    studentId: integer('student_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    schoolId: integer('school_id').notNull(),
    firstIn: timestamptz('first_in'),
    lastOut: timestamptz('last_out'),
    late: boolean('late').notNull().default(false),
    leftEarly: boolean('left_early').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.studentId, t.day] }), index('attendance_student_days_school_id_day_idx').on(t.schoolId, t.day)],
);

/**
 * One row per school and day from the day the job started: whether it is a school day, how many
 * enrolled students it expects, how many were present, late or left early, and the day's recognitions.
 */
export const attendanceSchoolDays = pgTable(
  'attendance_school_days',
  {
    schoolId: integer('school_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    agentId: integer('agent_id').notNull().default(0),
    workDay: boolean('work_day').notNull(),
    enrolled: integer('enrolled').notNull().default(0),
    present: integer('present').notNull().default(0),
    late: integer('late').notNull().default(0),
    leftEarly: integer('left_early').notNull().default(0),
    recognitions: integer('recognitions').notNull().default(0),
    failed: integer('failed').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.schoolId, t.day] }),
    // Company-wide callers read by day; agents by their agent id and day.
    index('attendance_school_days_day_idx').on(t.day, t.schoolId),
    index('attendance_school_days_agent_id_day_idx').on(t.agentId, t.day),
  ],
);

/**
 * One row per enrolled student and month: days present, present on school days, late and left early
 * (on school days). Absent days are the school's school days of the month so far less the days present
 * on them, read with the school days at query time.
 */
export const attendanceStudentMonths = pgTable(
  'attendance_student_months',
  {
    studentId: integer('student_id').notNull(),
    month: date('month', { mode: 'string' }).notNull(),
    schoolId: integer('school_id').notNull(),
    presentDays: integer('present_days').notNull().default(0),
    presentSchoolDays: integer('present_school_days').notNull().default(0),
    lateDays: integer('late_days').notNull().default(0),
    leftEarlyDays: integer('left_early_days').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.studentId, t.month] }), index('attendance_student_months_school_id_month_idx').on(t.schoolId, t.month, t.studentId)],
);

/**
 * One row per school and month: its school days so far (the closed days of the month that are school
 * days) and its students with a month row, so absent days and the totals of a million students are
 * read from a thousand rows.
 */
export const attendanceSchoolMonths = pgTable(
  'attendance_school_months',
  {
    schoolId: integer('school_id').notNull(),
    month: date('month', { mode: 'string' }).notNull(),
    agentId: integer('agent_id').notNull().default(0),
    schoolDays: integer('school_days').notNull().default(0),
    students: integer('students').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.schoolId, t.month] }), index('attendance_school_months_month_idx').on(t.month, t.schoolId)],
);

/** Ranges of days whose school-day status changed (a holidayManage row written): the job recounts them. */
export const attendanceDirtyRanges = pgTable('attendance_dirty_ranges', {
  id: serial('id').primaryKey(),
  // null: a row for all schools.
  schoolId: integer('school_id'),
  fromDay: date('from_day', { mode: 'string' }).notNull(),
  toDay: date('to_day', { mode: 'string' }).notNull(),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
});

/** The measures a school-day row adds to a coarser rollup row: school-day measures count school days only. */
const attendanceSums = {
  /** School-day rows summed in (0: none left, the row is not a group). */
  days: integer('days').notNull().default(0),
  schoolDays: integer('school_days').notNull().default(0),
  expected: integer('expected').notNull().default(0),
  present: integer('present').notNull().default(0),
  absent: integer('absent').notNull().default(0),
  late: integer('late').notNull().default(0),
  leftEarly: integer('left_early').notNull().default(0),
  recognitions: integer('recognitions').notNull().default(0),
  failed: integer('failed').notNull().default(0),
};

/**
 * `attendance_school_days` summed per whole week (Monday) and month, school and the days' agent, so a
 * long range reads a row per school and week or month instead of one per day (reports/period-pieces.ts).
 * Kept by statement triggers on the school days (migration `*_coarse-rollups.sql`), so every
 * write of the attendance job moves them in its own transaction.
 */
export const attendanceSchoolPeriods = pgTable(
  'attendance_school_periods',
  {
    grain: text('grain').notNull(),
    period: date('period', { mode: 'string' }).notNull(),
    schoolId: integer('school_id').notNull(),
    agentId: integer('agent_id').notNull(),
    ...attendanceSums,
  },
  (t) => [primaryKey({ columns: [t.grain, t.period, t.schoolId, t.agentId] }), index('attendance_school_periods_agent_id_grain_period_idx').on(t.agentId, t.grain, t.period)],
);

/**
 * `attendance_school_days` summed per day and agent: a trend of the company or of one agent that is
 * not split by school reads a few rows per day instead of a thousand. Kept by the same triggers.
 */
export const attendanceAgentDays = pgTable(
  'attendance_agent_days',
  {
    day: date('day', { mode: 'string' }).notNull(),
    agentId: integer('agent_id').notNull(),
    ...attendanceSums,
  },
  (t) => [primaryKey({ columns: [t.day, t.agentId] })],
);
