/**
 * A Search page's rows statement, built once per shape and run with each call's values. Building it
 * (drizzle walking the select list, labels, conditions and order into SQL text) was a quarter of a
 * Search's Node time, the same text every call of a page (docs/performance.md, issue 12).
 *
 * The shape is the family, view and sort, whether money columns are hidden (the select list), and
 * each condition's shape (platform/sql-terms.ts); a condition whose values live inside its SQL (a
 * family hook's) has none, and its statement is built anew each call. The statement is prepared
 * unnamed: PostgreSQL parses and plans it again on every call, with its values — a generic plan does
 * not know a name pattern and so cannot take the name index's prefix range (a named statement cost
 * a name-prefix Search 70 ms instead of 2).
 *
 * A page of matches so dense in the table that walking the newest ids finds it within WALK_ROWS rows
 * (a name part common in the caller's rows, its total kept from the call before) is read by a second
 * statement of the same shape whose conditions are written in their walk form, which no index serves
 * and whose estimates do not depend on the values, with its limit and offset written in: the one plan
 * is the walk PostgreSQL would choose anyway, and the statement is named, so that after its first
 * five calls on a connection PostgreSQL finds the plan made without the values as cheap as one made
 * with them and stops planning it (docs/decisions.md "A common name part's page: the walk of the
 * newest ids, planned once").
 */
import { createHash } from 'node:crypto';
import { builtOnce } from '@campus/contract';
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { termSql, type Term } from '../../platform/sql-terms.js';
import type { EngineContext, Row } from './context.js';
import { allConditions, arrayRowsOf, orderOf, searchTerms, selectPage, selection, writtenBound } from './query.js';
import { tableOf } from './registry.js';

/** What a Search asks for: its conditions (scope, filters, view) and its order. */
export interface SearchAsk {
  terms: Term[];
  /** `shape` names the order in the statement's key; `sql` writes it; `byKey`: the order is the id's alone. */
  order: { shape: string; sql(): SQL[]; byKey: boolean };
}

/** A resource Search's ask: scope and filters, ordered by the asked field (or the family's default) then id. */
export function searchAskOf(ctx: EngineContext, filters: Row, sortField?: string, sortOrder?: 'asc' | 'desc'): SearchAsk {
  const table = tableOf(ctx.def);
  const byKey = (sortField ?? ctx.def.defaultSort?.field ?? 'id') === 'id';
  return { terms: searchTerms(ctx, table, filters), order: { shape: `${sortField ?? ''} ${sortOrder ?? ''}`, sql: () => orderOf(ctx, table, sortField, sortOrder), byKey } };
}

interface PageStatement {
  execute(values: Record<string, unknown>): Promise<unknown>;
}

/** Shapes kept per database before all are dropped (a few per page and sort in use). */
const MAX_SHAPES = 1000;

const statementsOf = builtOnce((_db: Database) => new Map<string, PageStatement>());

/** How many page statements a database keeps now (tests: one per shape, not one per call). */
export const keptPageStatements = (db: Database): number => statementsOf(db).size;

/** Conditions with their values in them, for the statements built each time (the count, the export). */
export function whereOf(terms: Term[]): SQL | undefined {
  return allConditions(terms.map(termSql));
}

/** Rows a walk of the newest ids may check for one page before the indexes' plan is the cheaper. */
export const WALK_ROWS = 1_000;

/** How long a table's row count (the planner's, pg_class.reltuples) is reused. */
const TABLE_ROWS_MAX_AGE_MS = 10 * 60_000;

const tableRowsOf = builtOnce((_db: Database) => new Map<string, { rows: Promise<number>; readAt: number }>());

/** The table's row count as the planner last counted it (0 before any ANALYZE or when unreadable), read at most every ten minutes. */
function tableRows(ctx: EngineContext, now: number): Promise<number> {
  const kept = tableRowsOf(ctx.db);
  const name = ctx.def.table;
  const known = kept.get(name);
  if (known && now - known.readAt < TABLE_ROWS_MAX_AGE_MS) return known.rows;
  const rows = ctx.db
    .execute(sql`select greatest(reltuples, 0)::bigint as n from pg_class where oid = to_regclass(${name})`)
    .then((result) => Number((result as unknown as { rows: { n: string | number }[] }).rows[0]?.n ?? 0))
    // Unknown is "no walk" (the indexes' plan, as before), asked again on the next page.
    .catch(() => {
      kept.delete(name);
      return 0;
    });
  kept.set(name, { rows, readAt: now });
  return rows;
}

/**
 * Whether a page (`needed` rows from the first match on) is read by walking the newest ids: the
 * order is the id's, every condition has a walk form, and `matches` (the kept total) are dense enough
 * in the table that the walk checks at most WALK_ROWS rows for them.
 */
export async function walksKey(ctx: EngineContext, ask: SearchAsk, matches: number, needed: number): Promise<boolean> {
  if (!ask.order.byKey || !ask.terms.every((term) => term.walk) || matches * WALK_ROWS < needed) return false;
  const rows = await tableRows(ctx, ctx.clock.now().getTime());
  return rows > 0 && matches * WALK_ROWS >= needed * rows;
}

/** One page of rows (limit, offset) of a Search, in wire form; `walk`: by the walk of the newest ids (walksKey). */
export async function readPage(ctx: EngineContext, ask: SearchAsk, limit: number, offset: number, walk = false): Promise<Row[]> {
  const shape = shapeKey(ctx, ask);
  const walking = walk && shape !== undefined ? { limit, offset } : undefined;
  const key = walking ? `${shape}\u0000walk ${limit} ${offset}` : shape;
  const statements = statementsOf(ctx.db);
  let statement = key === undefined ? undefined : statements.get(key);
  if (!statement) {
    statement = pageStatement(ctx, ask, walking);
    if (key !== undefined) {
      if (statements.size >= MAX_SHAPES) statements.clear();
      statements.set(key, statement);
    }
  }
  const values: Record<string, unknown> = walking ? {} : { limit, offset };
  let next = 0;
  for (const term of ask.terms) for (const value of term.values) values[`v${next++}`] = value;
  return (await statement.execute(values)) as Row[];
}

/** The name a walk's statement is prepared under on each connection: its text's, so that a name never stands for two texts. */
export const walkStatementName = (text: string): string => `campus_walk_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;

/**
 * The page statement over placeholders, its rows mapped to wire form by a mapper compiled with it;
 * `walk`: the walk's, its conditions in their walk form and its limit and offset written in (a plan
 * made without them would take the limit for a tenth of the rows).
 */
function pageStatement(ctx: EngineContext, ask: SearchAsk, walk?: { limit: number; offset: number }): PageStatement {
  const table = tableOf(ctx.def);
  let next = 0;
  const where = allConditions(ask.terms.map((term) => (walk ? term.walk! : term.sql)(term.values.map(() => sql.placeholder(`v${next++}`)))));
  const fields = selection(ctx, table);
  const query = selectPage(ctx, where, ask.order.sql(), walk ? writtenBound(walk.limit) : sql.placeholder('limit'), walk ? writtenBound(walk.offset) : sql.placeholder('offset'), fields).toSQL();
  // Unnamed (''): parsed and planned with each call's values; a walk's named. Rows come as arrays in
  // the select list's order, mapped here instead of by drizzle and then again to wire form.
  return ctx.db._.session.prepareQuery(query, undefined, walk ? walkStatementName(query.sql) : '', true, arrayRowsOf(fields, ctx.def));
}

/** What the statement's SQL text depends on, or undefined when a condition holds its values. */
function shapeKey(ctx: EngineContext, ask: SearchAsk): string | undefined {
  let key = `${ctx.def.name}\u0000${ctx.view.frame}\u0000${ctx.probes.hideAmountColumns ? 1 : 0}\u0000${ask.order.shape}`;
  for (const term of ask.terms) {
    if (term.shape === undefined) return undefined;
    key += `\u0000${term.shape}`;
  }
  return key;
}
