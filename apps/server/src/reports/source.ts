/**
 * A report's source: the SQL it reads, written next to the report's name. The engine asks it for
 * the groups of the requested dimensions within the caller's scope and filters, and pages, sorts,
 * totals and exports them.
 */
import type { ReportDef, ReportGrain } from '@campus/contract';
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { scopeCondition, type SchoolScope } from '../platform/scope.js';

/** The business days a report covers (YYYY-MM-DD, both included) and their grouping. */
export interface ReportPeriod {
  from: string;
  to: string;
  grain: ReportGrain;
}

export interface ReportQuery {
  /** Dimensions to group by, in declaration order (a subset for GetSummary's `groupBy`). */
  groupBy: readonly string[];
  /** Filters as the schema parsed them: "any" values removed, references by id or key. */
  filters: Readonly<Record<string, unknown>>;
  period?: ReportPeriod;
  scope: SchoolScope;
  /** The agent whose schools are exactly the scope (agent and child callers), else null (scope.ts `scopeAgentOf`). */
  scopeAgentId: number | null;
}

export interface ReportSource {
  /**
   * One select: a column per grouped dimension (plus `${dimension}Label` for references, unless
   * `labels` adds them) and per declared measure, named exactly as declared, one row per group.
   */
  grouped(query: ReportQuery): SQL;
  /**
   * Adds the `${dimension}Label` columns to some rows of `grouped` (given as a subquery). A source
   * whose groups are many declares it, so Search names only the groups of its page instead of all
   * of them before LIMIT (docs/performance.md, transaction summaries).
   */
  labels?(rows: SQL, query: ReportQuery): SQL;
  /**
   * One row: every declared measure summed over all the groups of `grouped`, named as declared. A
   * source declares it when its measures can be summed from its rows without grouping them first;
   * without it the engine sums the groups.
   */
  totals?(query: ReportQuery): SQL;
}

/** A report's server side: its declaration and its source, listed once in `REPORT_MODULES` (reports/index.ts). */
export interface ReportModule {
  def: ReportDef;
  source: ReportSource;
}

/** The module of a declared report; it registers nothing until it is listed. */
export function defineReportSource(def: ReportDef, source: ReportSource): ReportModule {
  return { def, source };
}

/** Every group with its labels: what GetSummary and Export answer whole. */
export function labelledGroups(source: ReportSource, query: ReportQuery): SQL {
  const grouped = source.grouped(query);
  return source.labels ? source.labels(grouped, query) : grouped;
}

/** The start (YYYY-MM-DD) of the period a business day falls in; weeks start on Monday. */
export function periodStartSql(day: SQLWrapper, grain: ReportGrain): SQL<string> {
  // date_trunc's unit is a literal so the expression groups by itself (a parameter would differ per use).
  const unit = sql.raw(`'${grain}'`);
  return sql<string>`to_char(date_trunc(${unit}, ${day}::timestamp), 'YYYY-MM-DD')`;
}

/**
 * The start of the period as a date: a cheaper key to group many rows by than its text, formatted
 * (`to_char(…::timestamp, 'YYYY-MM-DD')`) once per group afterwards.
 */
export function periodStartDateSql(day: SQLWrapper, grain: ReportGrain): SQL<string> {
  const unit = sql.raw(`'${grain}'`);
  return sql<string>`date_trunc(${unit}, ${day}::timestamp)::date`;
}

/** The scope condition on a source's school column (school 0, "no school", only for company-wide scopes). */
export function inScope(query: ReportQuery, schoolColumn: SQLWrapper): SQL {
  return scopeCondition(query.scope, schoolColumn);
}

/** A column alias exactly as declared (camelCase needs quoting). */
export function named(expression: SQL | SQLWrapper, name: string): SQL {
  return sql`${expression} as ${sql.identifier(name)}`;
}
