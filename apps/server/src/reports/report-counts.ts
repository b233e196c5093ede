/**
 * How many groups a report Search answers, without grouping every one of them on every page. As in
 * the resource Search (engine/search-counts.ts): a page that ends the result proves the exact number;
 * otherwise the groups are counted up to COUNT_CAP + 1 when the planner finds that cheap
 * (SEARCH_COUNT_COST_LIMIT), else the planner's estimate answers, labelled as one and never below
 * what the page proves. An agent's month of day rollups holds ~38,000 groups: counting them all cost
 * more than the rest of the Search together (docs/performance.md).
 */
import { sql, type SQL } from 'drizzle-orm';
import { COUNT_CAP } from '../resources/engine/query.js';
import { countPlanOf, roundedEstimate, type PageTotal } from '../resources/engine/search-counts.js';
import type { ReportContext } from './context.js';

/** What the page read proves: its rows, whether one more followed, and where it starts. */
export interface ReadPage {
  rows: number;
  hasMore: boolean;
  offset: number;
  pageSize: number;
}

/** Counts the groups up to COUNT_CAP + 1, so the answer can say "more than the cap". */
const boundedCountOf = (grouped: SQL) => sql`select count(*)::int as n from (select 1 from (${grouped}) g limit ${COUNT_CAP + 1}) capped`;

async function countOrEstimate(ctx: ReportContext, grouped: SQL): Promise<PageTotal> {
  const counting = boundedCountOf(grouped);
  const explained = (await ctx.db.execute(sql`explain (format json) ${counting}`)) as unknown as { rows: Record<string, unknown>[] };
  const plan = countPlanOf(Object.values(explained.rows[0] ?? {})[0]);
  if (!plan || plan.cost <= ctx.countCostLimit) {
    const result = (await ctx.db.execute(counting)) as unknown as { rows: { n: number | string }[] };
    const n = Number(result.rows[0]?.n ?? 0);
    return n > COUNT_CAP ? { total: COUNT_CAP, totalIsCapped: true, totalIsEstimate: false } : { total: n, totalIsCapped: false, totalIsEstimate: false };
  }
  return { total: roundedEstimate(plan.rows), totalIsCapped: false, totalIsEstimate: true };
}

/** The number of groups of a Search: exact when the page ends the result, else counted (capped) or estimated. */
export async function groupTotal(ctx: ReportContext, grouped: SQL, page: ReadPage): Promise<PageTotal> {
  if (!page.hasMore && (page.rows > 0 || page.offset === 0)) return { total: page.offset + page.rows, totalIsCapped: false, totalIsEstimate: false };
  const total = await countOrEstimate(ctx, grouped);
  // An estimate never says fewer groups than this page proves exist.
  if (total.totalIsEstimate && page.hasMore) return { ...total, total: Math.max(total.total, page.offset + page.pageSize + 1) };
  return total;
}
