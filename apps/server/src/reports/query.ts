/** Pages, sorts and totals the groups a report's source answers. */
import { addDays, formatBusinessDate, periodKeysOf, MAX_RANGE_DAYS, daysBetween, REPORT_GRAIN_LABELS, type ReportDef, type ReportGrain, type ReportRow } from '@campus/contract';
import { sql, type SQL } from 'drizzle-orm';
import { badRequest, msg } from '../platform/errors.js';
import { scopeAgentOf } from '../platform/scope.js';
import type { ReportContext } from './context.js';
import { groupTotal } from './report-counts.js';
import { labelledGroups, type ReportPeriod, type ReportQuery, type ReportSource } from './source.js';

/** GetSummary and Export answer at most this many groups: more than anyone reads, a sign the filters are too wide. */
export const MAX_GROUPS = 10_000;

export interface ReportInput {
  filters: Record<string, unknown>;
  grain?: ReportGrain;
  sortField?: string;
  sortOrder?: 'asc' | 'desc';
}

/** The first day of the month `monthsBack` months before the given business day. */
function monthStart(day: string, monthsBack: number): string {
  const [year, month] = day.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, month - 1 - monthsBack, 1)).toISOString().slice(0, 10);
}

/**
 * The period a call covers: the range given, or the report's default days or months up to today
 * (Asia/Shanghai); a range longer than its grain allows answers 400.
 */
export function resolvePeriod(def: ReportDef, input: ReportInput, now: Date): ReportPeriod | undefined {
  const keys = periodKeysOf(def);
  if (!def.period || !keys) return undefined;
  const today = formatBusinessDate(now);
  const to = (input.filters[keys.to] as string | undefined) ?? today;
  const from = (input.filters[keys.from] as string | undefined) ?? (def.period.defaultDays ? addDays(to, 1 - def.period.defaultDays) : monthStart(to, def.period.defaultMonths - 1));
  const grain = input.grain ?? def.period.defaultGrain;
  if (from > to) throw badRequest([{ path: keys.to, ...msg('report.rangeReversed') }]);
  if (daysBetween(from, to) > MAX_RANGE_DAYS[grain]) {
    throw badRequest([{ path: keys.from, ...msg('report.rangeTooLong', { grain: REPORT_GRAIN_LABELS[grain], days: MAX_RANGE_DAYS[grain] }) }]);
  }
  return { from, to, grain };
}

function queryOf(ctx: ReportContext, input: ReportInput, groupBy: readonly string[], now: Date): ReportQuery {
  const keys = periodKeysOf(ctx.def);
  const filters = Object.fromEntries(Object.entries(input.filters).filter(([key]) => key !== keys?.from && key !== keys?.to));
  return { groupBy, filters, period: resolvePeriod(ctx.def, input, now), scope: ctx.scope, scopeAgentId: scopeAgentOf(ctx.user) };
}

/** ORDER BY the requested field, then every grouped dimension, so pages never repeat or skip a group. */
function orderOf(ctx: ReportContext, input: ReportInput, groupBy: readonly string[]): SQL {
  const field = input.sortField ?? ctx.def.defaultSort.field;
  const direction = sql.raw((input.sortOrder ?? ctx.def.defaultSort.order) === 'asc' ? 'asc' : 'desc');
  const keys = [...(groupBy.includes(field) || ctx.measures.some(([name]) => name === field) ? [sql`${sql.identifier(field)} ${direction} nulls last`] : [])];
  for (const dimension of groupBy) if (dimension !== field) keys.push(sql`${sql.identifier(dimension)} asc nulls last`);
  return sql.join(keys, sql`, `);
}

/** A database row in wire form: measures as numbers, hidden measures dropped. */
function toWire(ctx: ReportContext, groupBy: readonly string[], row: Record<string, unknown>): ReportRow {
  const out: ReportRow = {};
  for (const dimension of groupBy) {
    out[dimension] = row[dimension] ?? null;
    if (ctx.def.dimensions[dimension]?.kind === 'reference') out[`${dimension}Label`] = row[`${dimension}Label`] ?? null;
  }
  for (const [name] of ctx.measures) out[name] = Number(row[name] ?? 0);
  for (const name of Object.keys(ctx.def.attributes ?? {})) if (name in row) out[name] = row[name] === null ? null : String(row[name]);
  return out;
}

const totalKey = (measure: string) => `__total_${measure}`;

/** The sums of the visible measures over the groups GetSummary reads whole, as window aggregates read with them. */
function totalsSelect(ctx: ReportContext): SQL {
  const parts = ctx.measures.map(([name]) => sql`sum(${sql.identifier(name)}) over () as ${sql.identifier(totalKey(name))}`);
  // A report whose every measure is hidden still selects something after `g.*`.
  return parts.length > 0 ? sql.join(parts, sql`, `) : sql`null as "__none"`;
}

async function rowsOf(ctx: ReportContext, query: SQL): Promise<Record<string, unknown>[]> {
  const result = (await ctx.db.execute(query)) as unknown as { rows: Record<string, unknown>[] };
  return result.rows;
}

function totalsOf(ctx: ReportContext, row: Record<string, unknown> | undefined): Record<string, number> {
  return Object.fromEntries(ctx.measures.map(([name]) => [name, Number(row?.[totalKey(name)] ?? 0)]));
}

/** The totals of every group in one aggregate: the source's own sum over its rows, or the sum of its groups. */
async function searchTotals(ctx: ReportContext, source: ReportSource, query: ReportQuery): Promise<Record<string, number>> {
  if (source.totals) {
    const [row] = await rowsOf(ctx, source.totals(query));
    return Object.fromEntries(ctx.measures.map(([name]) => [name, Number(row?.[name] ?? 0)]));
  }
  const sums = ctx.measures.map(([name]) => sql`sum(${sql.identifier(name)}) as ${sql.identifier(totalKey(name))}`);
  if (sums.length === 0) return {};
  const [row] = await rowsOf(ctx, sql`select ${sql.join(sums, sql`, `)} from (${source.grouped(query)}) g`);
  return totalsOf(ctx, row);
}

/**
 * One page of groups, whether more follow, how many there are and the totals over all of them. The
 * page is chosen among the unnamed groups and only its rows are named (`ReportSource.labels`); its
 * number is exact when the page ends the result, else counted up to the cap or estimated
 * (report-counts.ts); the totals are one aggregate. Read as one query with joins and window sums
 * over every group, an agent's month of 38,000 groups cost 656 ms p95 (docs/performance.md).
 */
export async function searchReport(ctx: ReportContext, input: ReportInput, page: { pageIndex: number; pageSize: number }, now: Date) {
  const groupBy = Object.keys(ctx.def.dimensions);
  const { source } = ctx;
  const query = queryOf(ctx, input, groupBy, now);
  const grouped = source.grouped(query);
  const order = orderOf(ctx, input, groupBy);
  const offset = (page.pageIndex - 1) * page.pageSize;
  // One row more than the page shows says whether another page follows, without counting.
  const chosen = sql`select g.* from (${grouped}) g order by ${order} limit ${page.pageSize + 1} offset ${offset}`;
  // The page and the totals are independent statements: on PostgreSQL's pool they run at once.
  const [read, totals] = await Promise.all([
    rowsOf(ctx, source.labels ? sql`select l.* from (${source.labels(chosen, query)}) l order by ${order}` : chosen),
    searchTotals(ctx, source, query),
  ]);
  const hasMore = read.length > page.pageSize;
  const rows = hasMore ? read.slice(0, page.pageSize) : read;
  const total = await groupTotal(ctx, grouped, { rows: rows.length, hasMore, offset, pageSize: page.pageSize });
  return { items: rows.map((row) => toWire(ctx, groupBy, row)), ...total, hasMore, totals };
}

/** Every group of the requested dimensions (no paging) and the totals; more than MAX_GROUPS answers 400. */
export async function summarizeReport(ctx: ReportContext, input: ReportInput, groupBy: readonly string[], now: Date) {
  const ordered = Object.keys(ctx.def.dimensions).filter((dimension) => groupBy.includes(dimension));
  const grouped = labelledGroups(ctx.source, queryOf(ctx, input, ordered, now));
  const rows = await rowsOf(ctx, sql`select g.*, ${totalsSelect(ctx)} from (${grouped}) g order by ${orderOf(ctx, input, ordered)} limit ${MAX_GROUPS + 1}`);
  if (rows.length > MAX_GROUPS) {
    throw badRequest([{ path: 'groupBy', ...msg('report.tooManyGroups', { max: MAX_GROUPS }) }]);
  }
  return { items: rows.map((row) => toWire(ctx, ordered, row)), totals: totalsOf(ctx, rows[0]) };
}
