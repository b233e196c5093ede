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
 */
import { builtOnce } from '@campus/contract';
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { termSql, type Term } from '../../platform/sql-terms.js';
import type { EngineContext, Row } from './context.js';
import { allConditions, arrayRowsOf, orderOf, searchTerms, selectPage, selection } from './query.js';
import { tableOf } from './registry.js';

/** What a Search asks for: its conditions (scope, filters, view) and its order. */
export interface SearchAsk {
  terms: Term[];
  /** `shape` names the order in the statement's key; `sql` writes it. */
  order: { shape: string; sql(): SQL[] };
}

/** A resource Search's ask: scope and filters, ordered by the asked field (or the family's default) then id. */
export function searchAskOf(ctx: EngineContext, filters: Row, sortField?: string, sortOrder?: 'asc' | 'desc'): SearchAsk {
  const table = tableOf(ctx.def);
  return { terms: searchTerms(ctx, table, filters), order: { shape: `${sortField ?? ''} ${sortOrder ?? ''}`, sql: () => orderOf(ctx, table, sortField, sortOrder) } };
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

/** One page of rows (limit, offset) of a Search, in wire form. */
export async function readPage(ctx: EngineContext, ask: SearchAsk, limit: number, offset: number): Promise<Row[]> {
  const key = shapeKey(ctx, ask);
  const statements = statementsOf(ctx.db);
  let statement = key === undefined ? undefined : statements.get(key);
  if (!statement) {
    statement = pageStatement(ctx, ask);
    if (key !== undefined) {
      if (statements.size >= MAX_SHAPES) statements.clear();
      statements.set(key, statement);
    }
  }
  const values: Record<string, unknown> = { limit, offset };
  let next = 0;
  for (const term of ask.terms) for (const value of term.values) values[`v${next++}`] = value;
  return (await statement.execute(values)) as Row[];
}

/** The page statement over placeholders, its rows mapped to wire form by a mapper compiled with it. */
function pageStatement(ctx: EngineContext, ask: SearchAsk): PageStatement {
  const table = tableOf(ctx.def);
  let next = 0;
  const where = allConditions(ask.terms.map((term) => term.sql(term.values.map(() => sql.placeholder(`v${next++}`)))));
  const fields = selection(ctx, table);
  const query = selectPage(ctx, where, ask.order.sql(), sql.placeholder('limit'), sql.placeholder('offset'), fields).toSQL();
  // Unnamed (''): parsed and planned with each call's values. Rows come as arrays in the select
  // list's order, mapped here instead of by drizzle and then again to wire form.
  return ctx.db._.session.prepareQuery(query, undefined, '', true, arrayRowsOf(fields, ctx.def));
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
