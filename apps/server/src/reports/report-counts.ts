/**
 * How many groups a report Search answers, without grouping every one of them on every page: the
 * resource Search's rule (engine/search-counts.ts) over the report's groups — exact when the page ends
 * the result, else counted up to COUNT_CAP + 1 when the planner finds that cheap
 * (SEARCH_COUNT_COST_LIMIT), else counted up to a lower bound the cost allows, else "more than" what
 * the page proves. Never the planner's estimate: its guess at a GROUP BY's number of groups is off by
 * any factor (issue 32). An agent's month of day rollups holds ~38,000 groups: counting them all cost
 * more than the rest of the Search together (docs/performance.md).
 */
import { sql, type SQL } from 'drizzle-orm';
import { answeredTotal, boundedCountingOf, countOrBound, totalProvedBy, type PageTotal, type ReadPage } from '../resources/engine/search-counts.js';
import type { ReportContext } from './context.js';

/** Counts the groups up to `cap` + 1, so the answer can say "more than the cap". */
const boundedCountOf = (grouped: SQL, cap: number) => sql`select count(*)::int as n from (select 1 from (${grouped}) g limit ${cap + 1}) capped`;

/** The number of groups of a Search: exact when the page ends the result, else counted, or bounded below. */
export async function groupTotal(ctx: ReportContext, grouped: SQL, page: ReadPage): Promise<PageTotal> {
  const counting = boundedCountingOf(ctx.db, (cap) => boundedCountOf(grouped, cap), false);
  return totalProvedBy(page) ?? answeredTotal(await countOrBound(counting, ctx.countCostLimit, page.offset + page.pageSize), page);
}
