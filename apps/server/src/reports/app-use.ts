/**
 * Sources of the six app-use statistics: each groups one rollup the app-use job keeps
 * (db/schema/app-use.ts), never the app-use log, joined to the schools only for the filters and
 * dimensions that need them (agent, area, school type). Versions and functions are also kept per
 * agent, which company-wide and agent callers read instead of one row per school.
 */
import { FrequentStatistics, FunctionTrends, UaStatistics, UserActivity, UserComposition, UserStatistics, type ReportDef } from '@campus/contract';
import { sql, type SQL } from 'drizzle-orm';
import { defineReportSource, inScope, periodStartSql, type ReportModule, type ReportQuery } from './source.js';

/** One rollup as a source reads it: its table, its alias `r`, its day column and its measures. */
interface Rollup {
  from: SQL;
  /** The rows of the query's period (the rollup's own period rule). */
  inPeriod?: (query: ReportQuery) => SQL;
  /** The period a row falls in, at the query's grain. */
  periodOf?: (query: ReportQuery) => SQL;
  /** Each dimension's value from `r` and the school `s`. */
  dimensions: Record<string, SQL>;
  /** The measures' sums, named as declared. */
  sums: SQL;
  /** A group with every measure 0 is not a group. */
  nonZero: SQL;
  /**
   * The same rollup summed per agent (`r.agent_id`, same columns otherwise), read by company-wide and
   * agent callers without a school filter: a few rows per day instead of one per school.
   */
  perAgent?: SQL;
}

/** Filters every app-use report may declare, on the rollup's school and the school's row. */
function filterConditions(query: ReportQuery): SQL[] {
  const { filters } = query;
  const conditions: SQL[] = [inScope(query, sql`r.school_id`)];
  if (filters.schoolId !== undefined) conditions.push(sql`r.school_id = ${filters.schoolId}`);
  if (filters.agentId !== undefined) conditions.push(sql`s.agent_id = ${filters.agentId}`);
  if (filters.province !== undefined) conditions.push(sql`s.province = ${filters.province}`);
  if (filters.city !== undefined) conditions.push(sql`s.city = ${filters.city}`);
  if (filters.schoolType !== undefined) conditions.push(sql`s.school_type = ${filters.schoolType}`);
  return [...conditions, ...rowConditions(query)];
}

/** The filters on the rollup's own columns, which the per-agent rollups carry too. */
function rowConditions(query: ReportQuery): SQL[] {
  const { filters } = query;
  const conditions: SQL[] = [];
  if (filters.osType !== undefined) conditions.push(sql`r.os_type = ${filters.osType}`);
  if (filters.appType !== undefined) conditions.push(sql`r.app_type = ${filters.appType}`);
  if (filters.functionCode !== undefined) conditions.push(sql`r.function_code = ${filters.functionCode}`);
  return conditions;
}

/** Whether the query needs the school's row (an agent, area or school-type filter or dimension). */
const AREA_KEYS = ['province', 'city', 'schoolType'];
const SCHOOL_KEYS = ['agentId', ...AREA_KEYS];
function needsSchool(query: ReportQuery): boolean {
  return SCHOOL_KEYS.some((key) => query.filters[key] !== undefined || query.groupBy.includes(key)) || query.groupBy.includes('schoolId');
}

/**
 * Whether the per-agent rollup answers the query: the caller's scope is all schools or exactly an
 * agent's (scope.ts `scopeAgentOf`), nothing filters or groups by a school or its area, and the
 * agent filter is the only one on the school's row. Callers whose scope is some schools (sales,
 * external users) and school filters read per school.
 */
function readsPerAgent(query: ReportQuery): boolean {
  const bySchool = ['schoolId', ...AREA_KEYS].some((key) => query.filters[key] !== undefined || query.groupBy.includes(key));
  return !bySchool && !query.groupBy.includes('agentId') && (query.scope.kind === 'all' || query.scopeAgentId !== null);
}

function agentConditions(query: ReportQuery): SQL[] {
  const conditions = rowConditions(query);
  if (query.scopeAgentId !== null) conditions.push(sql`r.agent_id = ${query.scopeAgentId}`);
  if (query.filters.agentId !== undefined) conditions.push(sql`r.agent_id = ${query.filters.agentId}`);
  return conditions;
}

function defineRollupSource(def: ReportDef, rollup: Rollup): ReportModule {
  return defineReportSource(def, {
    grouped(query) {
      const perAgent = rollup.perAgent !== undefined && readsPerAgent(query);
      const conditions = perAgent ? agentConditions(query) : filterConditions(query);
      if (rollup.inPeriod) conditions.push(rollup.inPeriod(query));
      const keys = query.groupBy.map((name) => sql`${name === 'period' ? rollup.periodOf!(query) : rollup.dimensions[name]!} as ${sql.identifier(name)}`);
      const labels = query.groupBy.includes('schoolId') ? [sql`min(s.school_name) as "schoolIdLabel"`] : [];
      const join = !perAgent && needsSchool(query) ? sql`join schools s on s.id = r.school_id` : sql``;
      const grouped = sql`select ${sql.join([...keys, ...labels, rollup.sums], sql`, `)}
        from ${perAgent ? rollup.perAgent! : rollup.from} ${join}
        where ${sql.join(conditions, sql` and `)}
        ${keys.length > 0 ? sql.raw(`group by ${keys.map((_, i) => i + 1).join(', ')}`) : sql``}
        having ${rollup.nonZero}`;
      if (!query.groupBy.includes('functionCode')) return grouped;
      // Tiles are named after grouping, once per group instead of once per rollup row.
      return sql`select g.*, coalesce(f.name, g."functionCode") as "functionCodeLabel" from (${grouped}) g left join app_frames f on f.code = g."functionCode"`;
    },
  });
}

/** Day rollups: the rows of the range's days, grouped into the grain's periods. */
const dayRange = (query: ReportQuery) => sql`r.day between ${query.period!.from}::date and ${query.period!.to}::date`;
const dayPeriod = (query: ReportQuery) => periodStartSql(sql`r.day`, query.period!.grain);

export const uaStatisticsReport = defineRollupSource(UaStatistics, {
  from: sql`app_use_version_days r`,
  perAgent: sql`app_use_agent_version_days r`,
  inPeriod: dayRange,
  periodOf: dayPeriod,
  dimensions: { osType: sql`r.os_type`, osVersion: sql`r.os_version`, appType: sql`r.app_type`, appVersion: sql`r.app_version` },
  sums: sql`sum(r.sessions)::int as "sessions"`,
  nonZero: sql`sum(r.sessions) <> 0`,
});

/**
 * The period rollup: rows of the query's grain whose period starts in the range (a week or month
 * counts whole, from its first day), each already a distinct count of its school's parents.
 */
function activityPeriods(query: ReportQuery): SQL {
  const unit = sql.raw(`'${query.period!.grain}'`);
  return sql`r.grain = ${query.period!.grain} and r.period between date_trunc(${unit}, ${query.period!.from}::date::timestamp)::date and ${query.period!.to}::date`;
}

export const userActivityReport = defineRollupSource(UserActivity, {
  from: sql`app_use_activity r`,
  inPeriod: activityPeriods,
  periodOf: () => sql`to_char(r.period, 'YYYY-MM-DD')`,
  dimensions: {},
  sums: sql`sum(r.active)::int as "active", sum(r.new_parents)::int as "newParents", sum(r.active - r.new_parents)::int as "returning"`,
  nonZero: sql`sum(r.active) <> 0`,
});

/** The months that start in the range, whole (a range from the 15th counts its month). */
export const userCompositionReport = defineRollupSource(UserComposition, {
  from: sql`app_use_composition r`,
  inPeriod: (query) => sql`r.month between date_trunc('month', ${query.period!.from}::date)::date and ${query.period!.to}::date`,
  periodOf: () => sql`to_char(r.month, 'YYYY-MM-DD')`,
  dimensions: { relation: sql`r.relation`, grade: sql`r.grade`, schoolType: sql`s.school_type`, province: sql`s.province`, city: sql`s.city` },
  sums: sql`sum(r.active)::int as "active", sum(r.new_parents)::int as "newParents"`,
  nonZero: sql`sum(r.active) <> 0`,
});

const functionRollup = {
  from: sql`app_use_function_days r`,
  perAgent: sql`app_use_agent_function_days r`,
  inPeriod: dayRange,
  periodOf: dayPeriod,
  dimensions: { functionCode: sql`r.function_code` },
  sums: sql`sum(r.uses)::int as "uses", sum(r.parents)::int as "parentDays"`,
  nonZero: sql`sum(r.uses) <> 0`,
};

export const frequentStatisticsReport = defineRollupSource(FrequentStatistics, functionRollup);
export const functionTrendsReport = defineRollupSource(FunctionTrends, functionRollup);

export const userStatisticsReport = defineRollupSource(UserStatistics, {
  from: sql`app_user_school_counts r`,
  dimensions: { province: sql`s.province`, city: sql`s.city`, schoolId: sql`r.school_id` },
  sums: sql`sum(r.registered)::int as "registered", sum(r.activated)::int as "activated", sum(r.paying)::int as "paying"`,
  nonZero: sql`sum(r.registered) <> 0`,
});
