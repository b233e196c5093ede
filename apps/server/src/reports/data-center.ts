/**
 * Sources of the four DataCenter trends: each groups one rollup the platform keeps incrementally
 * (docs/decisions.md "DataCenter reads four existing rollups") by period and school, never the raw
 * records. The area and agent filters are the schools' (their current province, city and agent), read
 * as a set of school ids, so every trend filters alike whatever its rollup carries.
 */
import { DataCenterAppActivity, DataCenterDevices, DataCenterPayments, DataCenterRecognitions, type ReportDef } from '@campus/contract';
import { sql, type SQL } from 'drizzle-orm';
import { schools } from '../db/schema/index.js';
import { schoolDayRows } from './attendance-statistics.js';
import { dateArrayText, periodPieces } from './period-pieces.js';
import { defineReportSource, inScope, periodStartSql, type ReportModule, type ReportQuery } from './source.js';

/** One rollup as a trend reads it, under the alias `r`. */
interface TrendRollup {
  /** The rows of the query's period within the conditions (given on a table alias), aliased `r`. */
  rows: (query: ReportQuery, conditions: (alias: string) => SQL[]) => SQL;
  /** The start (YYYY-MM-DD) of the period a row falls in, at the query's grain. */
  periodOf: (query: ReportQuery) => SQL;
  /** The declared measures' sums, named as declared. */
  sums: SQL;
  /** A group whose every measure is 0 is not a group. */
  nonZero: SQL;
}

/** A rollup table read by its day column over the query's range. */
const dayRows = (table: string, column: string) => (query: ReportQuery, conditions: (alias: string) => SQL[]) =>
  sql`(select * from ${sql.raw(table)} r where ${sql.join([dayRange(column)(query), ...conditions('r')], sql` and `)}) r`;

/** The grain a trend's rows are grouped by; null when not by period. */
const groupedGrain = (query: ReportQuery) => (query.groupBy.includes('period') ? periodOf(query).grain : null);

/** The caller's scope and the filters, on the school column of the rollup under `alias`. */
function conditionsOf(query: ReportQuery, alias: string): SQL[] {
  const { filters } = query;
  const schoolId = sql.raw(`${alias}.school_id`);
  const conditions = [inScope(query, schoolId)];
  if (filters.schoolId !== undefined) conditions.push(sql`${schoolId} = ${filters.schoolId}`);
  const ofSchool: SQL[] = [];
  if (filters.province !== undefined) ofSchool.push(sql`${schools.province} = ${filters.province}`);
  if (filters.city !== undefined) ofSchool.push(sql`${schools.city} = ${filters.city}`);
  if (filters.agentId !== undefined) ofSchool.push(sql`${schools.agentId} = ${filters.agentId}`);
  if (ofSchool.length > 0) conditions.push(sql`${schoolId} in (select ${schools.id} from ${schools} where ${sql.join(ofSchool, sql` and `)})`);
  return conditions;
}

function defineTrendSource(def: ReportDef, rollup: TrendRollup): ReportModule {
  return defineReportSource(def, {
    grouped(query) {
      const keys: SQL[] = [];
      if (query.groupBy.includes('period')) keys.push(sql`${rollup.periodOf(query)} as "period"`);
      // School 0 is "no school" in the device rollup's key (devices in stock): answered as none.
      if (query.groupBy.includes('schoolId')) keys.push(sql`nullif(r.school_id, 0) as "schoolId"`);
      const groupBy = keys.length > 0 ? sql.raw(`group by ${keys.map((_, i) => i + 1).join(', ')}`) : sql``;
      return sql`select ${sql.join([...keys, rollup.sums], sql`, `)}
        from ${rollup.rows(query, (alias) => conditionsOf(query, alias))} ${groupBy} having ${rollup.nonZero}`;
    },
    // Schools are named for the groups asked (a page, or a pie's schools), not for every rollup row.
    labels(rows, query) {
      if (!query.groupBy.includes('schoolId')) return rows;
      return sql`select l.*, ${schools.schoolName} as "schoolIdLabel" from (${rows}) l left join ${schools} on ${schools.id} = l."schoolId"`;
    },
  });
}

const periodOf = (query: ReportQuery) => {
  if (!query.period) throw new Error('a DataCenter trend is declared with a period');
  return query.period;
};
/** Day rollups: the range's days, summed into the grain's periods. */
const dayRange = (column: string) => (query: ReportQuery) => sql`${sql.raw(column)} between ${periodOf(query).from}::date and ${periodOf(query).to}::date`;
const dayPeriod = (column: string) => (query: ReportQuery) => periodStartSql(sql.raw(column), periodOf(query).grain);

/**
 * The attendance rows the query needs (attendance-statistics.ts `schoolDayRows`): per day and agent for
 * the company's trend not split by school and without filters, else per school, whole weeks and months
 * of the range from the coarser rollup. An agent's own trend reads school rows: the DataCenter scopes by
 * the schools' current agent, the agent rows by the agent a day was closed under.
 */
export const dataCenterRecognitionsReport = defineTrendSource(DataCenterRecognitions, {
  rows: (query, conditions) => {
    const unfiltered = ['schoolId', 'province', 'city', 'agentId'].every((name) => query.filters[name] === undefined);
    const byAgent = !query.groupBy.includes('schoolId') && query.scope.kind === 'all' && unfiltered;
    const rows = schoolDayRows({
      period: periodOf(query),
      grain: groupedGrain(query),
      schoolConditions: conditions('d'),
      agentCondition: byAgent ? sql`true` : null,
    });
    return sql`(select * from ${rows}) r`;
  },
  periodOf: dayPeriod('r.day'),
  sums: sql.raw(`coalesce(sum(r.recognitions), 0)::int as "recognitions", coalesce(sum(r.failed), 0)::int as "failed", coalesce(sum(r.present), 0)::int as "present"`),
  nonZero: sql.raw(`sum(r.recognitions) <> 0 or sum(r.present) <> 0`),
});

/**
 * The payments per school (transaction_school_periods): the range's whole months and weeks as one
 * row each, the other days per day (period-pieces.ts), instead of a row per day, channel and item.
 */
export const dataCenterPaymentsReport = defineTrendSource(DataCenterPayments, {
  rows: (query, conditions) => {
    const { from, to } = periodOf(query);
    const pieces = periodPieces(from, to, groupedGrain(query));
    const parts = (
      [
        ['day', pieces.days],
        ['week', pieces.weeks],
        ['month', pieces.months],
      ] as const
    )
      .filter(([, periods]) => periods.length > 0)
      .map(([grain, periods]) => {
        const inPieces = sql`r.grain = ${grain} and r.period = any(${dateArrayText(periods)}::date[])`;
        return sql`select r.period as day, r.school_id, r.payments, r.paid, r.refunds, r.refunded from transaction_school_periods r
          where ${sql.join([inPieces, ...conditions('r')], sql` and `)}`;
      });
    return sql`(${sql.join(parts, sql` union all `)}) r`;
  },
  periodOf: dayPeriod('r.day'),
  sums: sql.raw(`sum(r.payments)::int as "payments", sum(r.paid)::bigint as "paid", sum(r.refunds)::int as "refunds", sum(r.refunded)::bigint as "refunded",
    (sum(r.paid) - sum(r.refunded))::bigint as "net"`),
  nonZero: sql.raw(`sum(r.payments) <> 0 or sum(r.refunds) <> 0`),
});

/**
 * The activity rollup holds each grain's own rows (a parent counts once per week or month, not once
 * per day of it): the rows of the query's grain whose period starts in the range, a week or month
 * starting before the range counted whole, as userActTable does.
 */
export const dataCenterAppActivityReport = defineTrendSource(DataCenterAppActivity, {
  rows: (query, conditions) => {
    const { grain, from, to } = periodOf(query);
    const unit = sql.raw(`'${grain}'`);
    const inPeriod = sql`r.grain = ${grain} and r.period between date_trunc(${unit}, ${from}::date::timestamp)::date and ${to}::date`;
    return sql`(select * from app_use_activity r where ${sql.join([inPeriod, ...conditions('r')], sql` and `)}) r`;
  },
  periodOf: () => sql`to_char(r.period, 'YYYY-MM-DD')`,
  sums: sql.raw(`sum(r.active)::int as "active", sum(r.new_parents)::int as "newParents", sum(r.active - r.new_parents)::int as "returning"`),
  nonZero: sql.raw(`sum(r.active) <> 0`),
});

export const dataCenterDevicesReport = defineTrendSource(DataCenterDevices, {
  rows: dayRows('device_day_counts', 'r.day'),
  periodOf: dayPeriod('r.day'),
  sums: sql.raw(`sum(r.stocked)::int as "stocked", sum(r.shipped)::int as "shipped", sum(r.installed)::int as "installed"`),
  nonZero: sql.raw(`sum(r.stocked) <> 0 or sum(r.shipped) <> 0 or sum(r.installed) <> 0`),
});

/** The four trends in the order the page shows them. */
export const DATA_CENTER_REPORTS: readonly ReportModule[] = [dataCenterRecognitionsReport, dataCenterPaymentsReport, dataCenterAppActivityReport, dataCenterDevicesReport];
