/**
 * A Search's total without counting again on every page turn. Counting up to COUNT_CAP + 1 rows is
 * most of what a Search costs the database on a large scope (≈ 3.8 ms of 6 at 1M students,
 * docs/performance.md), yet a reader paging through one result asks the same count again and again.
 * So a count is kept briefly per caller state (scope and probes), page and filter set, and dropped
 * when this server answers any write, or after COUNT_MAX_AGE_MS — a row written by another instance
 * or a background job shows in the total within that time, and in the rows at once. A page that is
 * not full needs no count at all: it ends the result, so offset + its rows is the exact total.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import type { SchoolScope } from '../../platform/scope.js';
import type { EngineContext, Row } from './context.js';
import { COUNT_CAP, boundedCount, selectPage } from './query.js';

/** How long a count is reused at most. */
export const COUNT_MAX_AGE_MS = 30_000;

/** Counts kept per caller state are dropped all at once past this many filter sets. */
const MAX_COUNTS_PER_CALLER = 200;

export interface PageTotal {
  total: number;
  totalIsCapped: boolean;
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

/** One page of a Search and its bounded total, counting only when no recent count is known. */
export async function searchPage(ctx: EngineContext, where: SQL | undefined, order: SQL[], filters: Row, pageSize: number, offset: number): Promise<{ rows: Row[] } & PageTotal> {
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
  const [rows, counted] = await Promise.all([selectPage(ctx, where, order, pageSize, offset) as Promise<Row[]>, fresh ? undefined : boundedCount(ctx, where)]);
  let total: PageTotal = counted ?? fresh!;
  // A page that is not full ends the result: its total is exact, whatever was counted or kept.
  if (rows.length < pageSize && (rows.length > 0 || offset === 0)) total = { total: offset + rows.length, totalIsCapped: offset + rows.length > COUNT_CAP };
  if (total.totalIsCapped) total = { total: COUNT_CAP, totalIsCapped: true };
  if (counts.size >= MAX_COUNTS_PER_CALLER) counts.clear();
  counts.set(key, { ...total, generation, countedAt: fresh?.countedAt ?? now });
  return { rows, total: total.total, totalIsCapped: total.totalIsCapped };
}

/** Whether a call may write: everything but reads by GET and the Search calls (POST for their bodies). */
function mayWrite(method: string, routeUrl: string | undefined): boolean {
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return false;
  return !routeUrl?.endsWith('/Search');
}

/**
 * Drops the kept Search counts after every call that may have written, as its answer starts (its
 * transaction has committed): the caller's next Search, sent once it has the answer, counts again.
 */
export const searchCountsPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onSend', async (request, _reply, payload) => {
      if (mayWrite(request.method, request.routeOptions.url)) forgetCounts(app.db);
      return payload;
    });
  },
  { name: 'search-counts', dependencies: ['context'] },
);
