/**
 * A Search's page and total without counting on every call. A page is read with one row more than
 * it shows, so whether a next page exists is known without any count (`hasMore`), and a page that
 * is not full ends the result: offset + its rows is the exact total. Only a full page needs a total,
 * and it is kept briefly per caller state (scope and probes), page and filter set, dropped when this
 * server answers any write or after COUNT_MAX_AGE_MS — a row written by another instance or a
 * background job shows in the total within that time, and in the rows at once.
 *
 * That total is counted (up to COUNT_CAP + 1 rows) when PostgreSQL's planner puts the count at or
 * under SEARCH_COUNT_COST_LIMIT — counts an index answers alone, about 400–2,100 at 1M students.
 * Above it — a name part matching thousands of rows spread over the table, each read from the heap:
 * 8,000–66,000, 70–380 ms — a count bounded lower, where the planner finds that cheap, is exact when
 * it ends below its bound; else the planner's estimate answers where it is near (`totalIsEstimate`:
 * within a few % for 1–2-character name parts, whose pieces the GIN statistics know), and "more than
 * N" (`totalIsCapped`) where it is not — a longer name part, whose estimate is 3 × low (issue 32;
 * docs/decisions.md).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { sql, type SQLWrapper } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import type { SchoolScope } from '../../platform/scope.js';
import type { EngineContext, Row } from './context.js';
import { COUNT_CAP, boundedCountQuery } from './query.js';
import { NAME_STRPOS_SHAPE } from './search-rules.js';
import { readPage, walksKey, whereOf, type SearchAsk } from './search-statement.js';

/** How long a count is reused at most. */
export const COUNT_MAX_AGE_MS = 30_000;

/** Counts kept per caller state are dropped all at once past this many filter sets. */
const MAX_COUNTS_PER_CALLER = 200;

export interface PageTotal {
  total: number;
  totalIsCapped: boolean;
  /** The total is the planner's estimate, not a count. */
  totalIsEstimate: boolean;
}

interface CachedCount extends PageTotal {
  /** The write generation the count was started in. */
  generation: number;
  countedAt: number;
}

/** Per database: bumped after every write this server answers. */
const generations = new WeakMap<Database, number>();

/**
 * Per caller state: its scope object lives exactly as long as the cached state (caller-state.ts),
 * so a changed grant, scope or probe setting starts with no counts.
 */
const countsOfState = new WeakMap<SchoolScope, Map<string, CachedCount>>();

const generationOf = (db: Database) => generations.get(db) ?? 0;

/** Drops every kept count of this database: a write may have changed any of them. */
export function forgetCounts(db: Database): void {
  generations.set(db, generationOf(db) + 1);
}

/** The planner's view of a bounded count: its cost, and the rows it expects to match before the cap. */
interface CountPlan {
  cost: number;
  rows: number;
}

interface PlanNode {
  'Node Type'?: string;
  'Total Cost'?: number;
  'Plan Rows'?: number;
  Plans?: PlanNode[];
}

/** Reads EXPLAIN's JSON: the whole statement's cost, and the rows under its LIMIT (the matches). */
export function countPlanOf(explained: unknown): CountPlan | undefined {
  const document = (typeof explained === 'string' ? JSON.parse(explained) : explained) as { Plan?: PlanNode }[] | undefined;
  const top = document?.[0]?.Plan;
  if (!top || typeof top['Total Cost'] !== 'number') return undefined;
  const pending: PlanNode[] = [top];
  while (pending.length > 0) {
    const node = pending.shift()!;
    const below = node.Plans?.[0];
    if (node['Node Type'] === 'Limit' && typeof below?.['Plan Rows'] === 'number') return { cost: top['Total Cost'], rows: below['Plan Rows'] };
    pending.push(...(node.Plans ?? []));
  }
  return undefined;
}

/** An estimate as people read one: two significant digits (36,842 → 37,000). */
export function roundedEstimate(rows: number): number {
  if (rows < 100) return Math.round(rows);
  const unit = 10 ** (Math.floor(Math.log10(rows)) - 1);
  return Math.round(rows / unit) * unit;
}

/** What a page read proves: its rows, whether one more followed, where it starts and its size. */
export interface ReadPage {
  rows: number;
  hasMore: boolean;
  offset: number;
  pageSize: number;
}

/** The exact total a page proves by ending the result; undefined while more may follow. */
export function totalProvedBy(page: ReadPage): PageTotal | undefined {
  if (page.hasMore || (page.rows === 0 && page.offset > 0)) return undefined;
  return { total: page.offset + page.rows, totalIsCapped: false, totalIsEstimate: false };
}

/** A counted or estimated total as a page answers it: a count past the cap says so, an estimate never says fewer rows than the page proves. */
export function answeredTotal(total: PageTotal, page: ReadPage): PageTotal {
  if (total.total > COUNT_CAP && !total.totalIsEstimate) return { total: COUNT_CAP, totalIsCapped: true, totalIsEstimate: false };
  // A lower bound kept from another page never says fewer rows than this page proves.
  if (total.totalIsCapped && page.hasMore) return { ...total, total: Math.min(COUNT_CAP, Math.max(total.total, page.offset + page.pageSize)) };
  if (total.totalIsEstimate && page.hasMore) return { ...total, total: Math.max(total.total, page.offset + page.pageSize + 1) };
  return total;
}

/** The largest of 1, 2 and 5 times a power of ten not above `value` (754 → 500): a bound people read at a glance. */
export function roundBoundDown(value: number): number {
  if (value < 1) return 0;
  const power = 10 ** Math.floor(Math.log10(value));
  return [5, 2, 1].map((step) => step * power).find((bound) => bound <= value)!;
}

/** Smallest lower bound worth counting to: below it the page's own proof says as much. */
const MIN_COUNTED_BOUND = 100;

/** How a bounded count is planned and run, for `cap` + 1 rows at most. */
export interface BoundedCounting {
  plan(cap: number): Promise<CountPlan | undefined>;
  count(cap: number): Promise<number>;
  /**
   * The planner's estimate of the matches is known to be near (within ±25 % on every bench:search
   * scenario): false for a name part of 3 characters or more, whose strpos check it takes for a third.
   */
  estimateIsNear: boolean;
}

/** A bounded count statement planned by EXPLAIN and run through `db`. */
export function boundedCountingOf(db: Database, countingUpTo: (cap: number) => SQLWrapper, estimateIsNear: boolean): BoundedCounting {
  return {
    estimateIsNear,
    async plan(cap) {
      const explained = (await db.execute(sql`explain (format json) ${countingUpTo(cap)}`)) as unknown as { rows: Record<string, unknown>[] };
      return countPlanOf(Object.values(explained.rows[0] ?? {})[0]);
    },
    async count(cap) {
      const counted = (await db.execute(countingUpTo(cap))) as unknown as { rows: { n: number | string }[] };
      return Number(counted.rows[0]?.n ?? 0);
    },
  };
}

/**
 * A Search's total that tells the truth: counted up to COUNT_CAP + 1 when the planner puts that at or
 * under `costLimit`; else counted up to a lower bound the cost allows (a count's cost grows with the
 * rows it must find) — exact when it ends below the bound; else the planner's estimate where it is
 * known to be near, labelled as one; else "more than" the bound, or than the rows the page proves
 * (`proven`: offset + page size when more follow).
 */
export async function countOrBound(counting: BoundedCounting, costLimit: number, proven: number): Promise<PageTotal> {
  const full = await counting.plan(COUNT_CAP);
  if (!full || full.cost <= costLimit) return { total: await counting.count(COUNT_CAP), totalIsCapped: false, totalIsEstimate: false };
  let atLeast = proven;
  const bound = roundBoundDown((COUNT_CAP * costLimit) / full.cost);
  if (bound >= MIN_COUNTED_BOUND && bound > proven) {
    const plan = await counting.plan(bound);
    if (plan && plan.cost <= costLimit) {
      const n = await counting.count(bound);
      if (n <= bound) return { total: n, totalIsCapped: false, totalIsEstimate: false };
      atLeast = bound;
    }
  }
  if (counting.estimateIsNear && full.rows > atLeast) return { total: roundedEstimate(full.rows), totalIsCapped: false, totalIsEstimate: true };
  return { total: atLeast, totalIsCapped: true, totalIsEstimate: false };
}

/** One page of a Search in wire form, whether another follows, and its total (exact, capped or estimated). */
export async function searchPage(ctx: EngineContext, ask: SearchAsk, filters: Row, pageSize: number, offset: number): Promise<{ rows: Row[]; hasMore: boolean } & PageTotal> {
  let counts = countsOfState.get(ctx.scope);
  if (!counts) {
    counts = new Map();
    countsOfState.set(ctx.scope, counts);
  }
  const key = `${ctx.def.name}\u0000${ctx.view.frame}\u0000${JSON.stringify(filters)}`;
  const generation = generationOf(ctx.db);
  const now = ctx.clock.now().getTime();
  const cached = counts.get(key);
  const fresh = cached && cached.generation === generation && now - cached.countedAt < COUNT_MAX_AGE_MS ? cached : undefined;
  // A total kept from the call before says whether the matches are dense enough to walk the newest ids.
  const walk = fresh !== undefined && (await walksKey(ctx, ask, fresh.total, offset + pageSize + 1));
  const read = await readPage(ctx, ask, pageSize + 1, offset, walk);
  const hasMore = read.length > pageSize;
  const rows = hasMore ? read.slice(0, pageSize) : read;
  const page: ReadPage = { rows: rows.length, hasMore, offset, pageSize };
  // A page with nothing after it ends the result: its total is exact, whatever was counted or kept.
  const total = answeredTotal(totalProvedBy(page) ?? fresh ?? (await countSearch(ctx, ask, offset + pageSize)), page);
  if (counts.size >= MAX_COUNTS_PER_CALLER) counts.clear();
  counts.set(key, { ...total, generation, countedAt: fresh?.countedAt ?? now });
  return { rows, hasMore, ...total };
}

/** Counts a Search's matches (or bounds them): built only when no kept or proved total answers, as most repeated pages' are. */
function countSearch(ctx: EngineContext, ask: SearchAsk, proven: number): Promise<PageTotal> {
  const where = whereOf(ask.terms);
  const estimateIsNear = !ask.terms.some((term) => term.shape?.includes(NAME_STRPOS_SHAPE));
  return countOrBound(boundedCountingOf(ctx.db, (cap) => boundedCountQuery(ctx, where, cap), estimateIsNear), ctx.server.env.SEARCH_COUNT_COST_LIMIT, proven);
}

/** Whether a call may write: everything but reads by GET and the Search calls (POST for their bodies). */
function mayWrite(request: FastifyRequest): boolean {
  const { method } = request;
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return false;
  // routeOptions builds an object on each read: only calls that may write get that far.
  return !request.routeOptions.url?.endsWith('/Search');
}

/**
 * Drops the kept Search counts after every call that may have written, as its answer starts (its
 * transaction has committed): the caller's next Search, sent once it has the answer, counts again.
 */
export const searchCountsPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onSend', (request, _reply, payload, done) => {
      if (mayWrite(request)) forgetCounts(app.db);
      done(null, payload);
    });
  },
  { name: 'search-counts', dependencies: ['context'] },
);
