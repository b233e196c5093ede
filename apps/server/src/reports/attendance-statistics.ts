/**
 * Sources of schoolStatistics (SchoolStatistics) and stuMonthStatistic (DiscernStatistics): they read
 * the attendance rollups the recurring job keeps (attendance-rollup.ts), a row per school and day and
 * per student and month, never the recognition records (docs/decisions.md "Attendance rollups").
 * Expected, absent, late and left early count school days only (the school's calendar); present
 * counts every day a child was recognised.
 */
import { DiscernStatistics, SchoolStatistics, type ReportGrain } from '@campus/contract';
import { sql, type SQL } from 'drizzle-orm';
import { schools, students } from '../db/schema/index.js';
import { dateArrayText, periodPieces } from './period-pieces.js';
import { defineReportSource, inScope, periodStartSql, type ReportPeriod, type ReportQuery } from './source.js';

/** The rollup rows of the caller's scope: an agent's by the rollup's agent key (its index), others by school. */
function scopeOf(query: ReportQuery, alias: string): SQL {
  if (query.scopeAgentId !== null) return sql`${sql.raw(alias)}.agent_id = ${query.scopeAgentId}`;
  return inScope(query, sql.raw(`${alias}.school_id`));
}

/** Sums over `schoolDayRows` (alias d), whose school-day measures already count school days only. */
const SCHOOL_MEASURES = sql.raw(`coalesce(sum(d.school_days), 0)::int as "schoolDays",
  coalesce(sum(d.expected), 0)::int as "expected",
  coalesce(sum(d.present), 0)::int as "present",
  coalesce(sum(d.absent), 0)::int as "absent",
  coalesce(sum(d.late), 0)::int as "late",
  coalesce(sum(d.left_early), 0)::int as "leftEarly",
  coalesce(sum(d.recognitions), 0)::int as "recognitions",
  coalesce(sum(d.failed), 0)::int as "failed"`);

/** The coarser rollups' columns, as stored (attendance_school_periods, attendance_agent_days). */
const COARSE_COLUMNS = sql.raw(`d.school_days, d.expected, d.present, d.absent, d.late, d.left_early, d.recognitions, d.failed`);
/** The same columns from a school-day row: school-day measures count on school days only. */
const DAY_COLUMNS = sql.raw(`d.work_day::int as school_days, case when d.work_day then d.enrolled else 0 end as expected, d.present,
  case when d.work_day then greatest(d.enrolled - d.present, 0) else 0 end as absent, case when d.work_day then d.late else 0 end as late,
  case when d.work_day then d.left_early else 0 end as left_early, d.recognitions, d.failed`);

/** What decides which attendance rows a query reads (SchoolStatistics' and DataCenterRecognitions' sources). */
export interface AttendanceRowsQuery {
  period: ReportPeriod;
  /** The grain the rows are grouped by; null when not grouped by period. */
  grain: ReportGrain | null;
  /** Conditions on the school rows (alias d: school_id, agent_id), the period excepted. */
  schoolConditions: SQL[];
  /**
   * When the rows are not split by school and the caller sees the company or exactly one agent's
   * schools (by the rollup's agent key): the condition on attendance_agent_days' agent_id (alias d),
   * `true` for all. Null reads the school rows.
   */
  agentCondition: SQL | null;
}

/**
 * The attendance rows of a period under alias d (day, school_id, agent_id and the measures of
 * COARSE_COLUMNS), the fewest a query needs: per day and agent when it is not split by school and its
 * scope is the company or an agent; else per school, whole months and weeks of the range from
 * attendance_school_periods and the other days from attendance_school_days (period-pieces.ts). A long
 * range then reads about a row per school and week or month instead of one per school and day.
 */
export function schoolDayRows(query: AttendanceRowsQuery): SQL {
  const { from, to } = query.period;
  if (query.agentCondition !== null) {
    return sql`(select d.day, 0 as school_id, d.agent_id, ${COARSE_COLUMNS} from attendance_agent_days d
      where d.day between ${from}::date and ${to}::date and d.days <> 0 and ${query.agentCondition}) d`;
  }
  const where = (first: SQL) => sql.join([first, ...query.schoolConditions], sql` and `);
  const pieces = periodPieces(from, to, query.grain);
  if (pieces.weeks.length === 0 && pieces.months.length === 0) {
    return sql`(select d.day, d.school_id, d.agent_id, ${DAY_COLUMNS} from attendance_school_days d where ${where(sql`d.day between ${from}::date and ${to}::date`)}) d`;
  }
  const parts: SQL[] = [];
  if (pieces.days.length > 0) {
    parts.push(sql`select d.day, d.school_id, d.agent_id, ${DAY_COLUMNS} from attendance_school_days d where ${where(sql`d.day = any(${dateArrayText(pieces.days)}::date[])`)}`);
  }
  for (const [grain, periods] of [['week', pieces.weeks], ['month', pieces.months]] as const) {
    if (periods.length === 0) continue;
    parts.push(sql`select d.period as day, d.school_id, d.agent_id, ${COARSE_COLUMNS} from attendance_school_periods d
      where ${where(sql`d.grain = ${grain} and d.period = any(${dateArrayText(periods)}::date[]) and d.days <> 0`)}`);
  }
  return sql`(${sql.join(parts, sql` union all `)}) d`;
}

function rowsQuery(query: ReportQuery, grouped: boolean): AttendanceRowsQuery {
  const { period, filters } = query;
  if (!period) throw new Error('SchoolStatistics is declared with a period');
  const bySchool = grouped && query.groupBy.includes('schoolId');
  const grain = grouped && query.groupBy.includes('period') ? period.grain : null;
  const schoolConditions = [scopeOf(query, 'd')];
  if (filters.schoolId !== undefined) schoolConditions.push(sql`d.school_id = ${filters.schoolId}`);
  if (filters.agentId !== undefined) schoolConditions.push(sql`d.agent_id = ${filters.agentId}`);
  let agentCondition: SQL | null = null;
  if (!bySchool && filters.schoolId === undefined && (query.scope.kind === 'all' || query.scopeAgentId !== null)) {
    const agents = [query.scopeAgentId, filters.agentId].filter((id) => id !== undefined && id !== null).map((id) => sql`d.agent_id = ${id}`);
    agentCondition = agents.length > 0 ? sql.join(agents, sql` and `) : sql`true`;
  }
  return { period, grain, schoolConditions, agentCondition };
}

export const schoolStatisticsReport = defineReportSource(SchoolStatistics, {
  grouped(query) {
    const keys: SQL[] = [];
    if (query.groupBy.includes('period')) keys.push(sql`${periodStartSql(sql`d.day`, query.period!.grain)} as "period"`);
    if (query.groupBy.includes('schoolId')) keys.push(sql`d.school_id as "schoolId"`);
    const groupBy = keys.length > 0 ? sql.raw(`group by ${keys.map((_, i) => i + 1).join(', ')}`) : sql``;
    return sql`select ${sql.join([...keys, SCHOOL_MEASURES], sql`, `)} from ${schoolDayRows(rowsQuery(query, true))} ${groupBy}`;
  },
  labels(rows, query) {
    if (!query.groupBy.includes('schoolId')) return rows;
    return sql`select l.*, ${schools.schoolName} as "schoolIdLabel" from (${rows}) l left join ${schools} on ${schools.id} = l."schoolId"`;
  },
  totals(query) {
    return sql`select ${SCHOOL_MEASURES} from ${schoolDayRows(rowsQuery(query, false))}`;
  },
});

/** The months a range touches: from the first day of its first month to the last day of its last. */
function monthsOf(query: ReportQuery): { first: SQL; end: SQL } {
  const { period } = query;
  if (!period) throw new Error('DiscernStatistics is declared with a period');
  return { first: sql`date_trunc('month', ${period.from}::date)::date`, end: sql`(date_trunc('month', ${period.to}::date) + interval '1 month')::date` };
}

function studentConditions(query: ReportQuery): SQL {
  const { first, end } = monthsOf(query);
  const conditions = [sql`m.month >= ${first} and m.month < ${end}`, scopeOf({ ...query, scopeAgentId: null }, 'm')];
  if (query.filters.schoolId !== undefined) conditions.push(sql`m.school_id = ${query.filters.schoolId}`);
  if (query.filters.studentId !== undefined) conditions.push(sql`m.student_id = ${query.filters.studentId}`);
  return sql.join(conditions, sql` and `);
}

/** One row per student and month, measures named as declared. */
function studentRows(query: ReportQuery): SQL {
  return sql`select to_char(m.month, 'YYYY-MM-DD') as "period", m.student_id as "studentId", m.school_id as "schoolId",
      sm.school_days as "schoolDays", m.present_days as "presentDays",
      greatest(sm.school_days - m.present_school_days, 0) as "absentDays",
      m.late_days as "lateDays", m.left_early_days as "leftEarlyDays"
    from attendance_student_months m
    join attendance_school_months sm on sm.school_id = m.school_id and sm.month = m.month
    where ${studentConditions(query)}`;
}

const STUDENT_SUMS = sql.raw(`coalesce(sum("schoolDays"), 0)::int as "schoolDays", coalesce(sum("presentDays"), 0)::int as "presentDays",
  coalesce(sum("absentDays"), 0)::int as "absentDays", coalesce(sum("lateDays"), 0)::int as "lateDays", coalesce(sum("leftEarlyDays"), 0)::int as "leftEarlyDays"`);

export const discernStatisticsReport = defineReportSource(DiscernStatistics, {
  grouped(query) {
    const all = ['period', 'studentId', 'schoolId'];
    // Grouped by every dimension a row is one group: read as they are, in the key's order (Search's page).
    if (all.every((name) => query.groupBy.includes(name))) return studentRows(query);
    const keys = query.groupBy.map((name) => sql.identifier(name));
    return sql`select ${sql.join([...keys, STUDENT_SUMS], sql`, `)} from (${studentRows(query)}) r
      ${keys.length > 0 ? sql`group by ${sql.join(keys, sql`, `)}` : sql``}`;
  },
  labels(rows, query) {
    const columns: SQL[] = [];
    const joins: SQL[] = [];
    if (query.groupBy.includes('studentId')) {
      columns.push(sql`${students.name} as "studentIdLabel"`);
      joins.push(sql`left join ${students} on ${students.id} = l."studentId"`);
    }
    if (query.groupBy.includes('schoolId')) {
      columns.push(sql`${schools.schoolName} as "schoolIdLabel"`);
      joins.push(sql`left join ${schools} on ${schools.id} = l."schoolId"`);
    }
    if (columns.length === 0) return rows;
    return sql`select l.*, ${sql.join(columns, sql`, `)} from (${rows}) l ${sql.join(joins, sql` `)}`;
  },
  /**
   * Without a student filter the totals come from the school rows: a student's month row is one of the
   * school month's `students`, and its days are the school days' counts, so the sums agree without
   * reading a million student rows (docs/decisions.md "Attendance rollups").
   */
  totals(query) {
    if (query.filters.studentId !== undefined) return sql`select ${STUDENT_SUMS} from (${studentRows(query)}) r`;
    const { first, end } = monthsOf(query);
    const months = [sql`sm.month >= ${first} and sm.month < ${end}`, scopeOf({ ...query, scopeAgentId: query.scopeAgentId }, 'sm')];
    const days = [sql`d.day >= ${first} and d.day < ${end}`, scopeOf(query, 'd')];
    if (query.filters.schoolId !== undefined) {
      months.push(sql`sm.school_id = ${query.filters.schoolId}`);
      days.push(sql`d.school_id = ${query.filters.schoolId}`);
    }
    return sql`select
        coalesce((select sum(sm.school_days * sm.students) from attendance_school_months sm where ${sql.join(months, sql` and `)}), 0)::int as "schoolDays",
        coalesce(sum(d.present), 0)::int as "presentDays",
        (coalesce((select sum(sm.school_days * sm.students) from attendance_school_months sm where ${sql.join(months, sql` and `)}), 0)
          - coalesce(sum(d.present) filter (where d.work_day), 0))::int as "absentDays",
        coalesce(sum(d.late) filter (where d.work_day), 0)::int as "lateDays",
        coalesce(sum(d.left_early) filter (where d.work_day), 0)::int as "leftEarlyDays"
      from attendance_school_days d where ${sql.join(days, sql` and `)}`;
  },
});
