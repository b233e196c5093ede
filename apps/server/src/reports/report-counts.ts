/**
 * How many groups a report Search answers, without grouping every one of them on every page: the
 * resource Search's rule (engine/search-counts.ts) over the report's groups — exact when the page ends
 * the result, else counted up to COUNT_CAP + 1 when the planner finds that cheap
 * (SEARCH_COUNT_COST_LIMIT), else the planner's estimate, labelled and never below what the page
 * proves. An agent's month of day rollups holds ~38,000 groups: counting them all cost more than the
 * rest of the Search together (docs/performance.md).
 */
import { sql, type SQL } from 'drizzle-orm';
import { COUNT_CAP } from '../resources/engine/query.js';
import { answeredTotal, countOrEstimate, totalProvedBy, type PageTotal, type ReadPage } from '../resources/engine/search-counts.js';
import type { ReportContext } from './context.js';

/** Counts the groups up to COUNT_CAP + 1, so the answer can say "more than the cap". */
const boundedCountOf = (grouped: SQL) => sql`select count(*)::int as n from (select 1 from (${grouped}) g limit ${COUNT_CAP + 1}) capped`;

/** The number of groups of a Search: exact when the page ends the result, else counted (capped) or estimated. */
export async function groupTotal(ctx: ReportContext, grouped: SQL, page: ReadPage): Promise<PageTotal> {
  return totalProvedBy(page) ?? answeredTotal(await countOrEstimate(ctx.db, boundedCountOf(grouped), ctx.countCostLimit), page);
}
