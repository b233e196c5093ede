/**
 * The search rules of text filters (contract FilterMode): how a typed value becomes a WHERE condition,
 * which index serves it, and how a name sorts. One place, so every page and the person search match
 * alike (docs/decisions.md "Search rules").
 *
 * - `name`: any part, case-insensitively. The value's lower-cased 1- and 2-character pieces
 *   (`search_grams`, migration 0030) must hold the typed value's pieces, which a GIN index answers
 *   even for a two-character Chinese part, where trigrams find nothing; `strpos` decides the rest.
 * - `code`: any part, case-insensitively, `ILIKE '%x%'` over a trigram index (codes are Latin letters
 *   and digits, typed 3 characters or more; a shorter part is checked row by row).
 * - `digits`: 4 or more digits match any run (`LIKE '%0023%'`, trigram index), fewer the start
 *   (`LIKE '13%'`, a btree with text_pattern_ops).
 */
import { DIGITS_ANY_PART_MIN, type FieldDef, type FilterMode } from '@campus/contract';
import { asc, desc, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { containsPattern, prefixPattern } from '../../platform/like-patterns.js';
import { boundTerm, termSql, type Term } from '../../platform/sql-terms.js';
import { NAME_COLLATION, SEARCH_GRAMS } from '../../db/schema/columns.js';

/** The rules that match typed text (the others compare values). */
export type TextRule = Extract<FilterMode, 'name' | 'code' | 'digits'>;

export const isTextRule = (mode: FilterMode | undefined): mode is TextRule => mode === 'name' || mode === 'code' || mode === 'digits';

/** Whether a `digits` value is long enough to match any run of digits rather than the start. */
export function digitsMatchAnyPart(value: string): boolean {
  return value.replace(/\D/g, '').length >= DIGITS_ANY_PART_MIN;
}

/** The condition matching `value` typed into a field searched by `rule`. */
export function textCondition(rule: TextRule, column: PgColumn | SQL, value: string): SQL {
  return termSql(textTerm(rule, column, value));
}

/** The shape of a name part whose planner estimate is 3 × low (strpos): a Search's total never answers that estimate. */
export const NAME_STRPOS_SHAPE = 'name-grams-strpos';

/** A value of one or two characters, before and after lower-casing, is the one piece search_query_grams makes of it. */
function isWholePiece(value: string): boolean {
  return [...value].length <= 2 && [...value.toLowerCase()].length <= 2;
}

/** A name part checked row by row, as a walk of the order's key checks it. */
function nameWalk(column: PgColumn | SQL): (params: readonly unknown[]) => SQL {
  return ([typed]) => sql`strpos(lower(${column}), lower(${typed})) <> 0`;
}

/** textCondition as a term: the SQL is the same for every value, the bound pattern is what differs. */
export function textTerm(rule: TextRule, column: PgColumn | SQL, value: string): Term {
  switch (rule) {
    case 'name':
      // The pieces of the typed value (bigrams, or the one character) must all be pieces of the row's
      // value: the GIN index narrows to those rows; strpos then keeps those holding the whole value.
      // strpos, not ILIKE: typed % _ \ need no escaping, it costs less per row than ILIKE on Chinese
      // text, and the planner does not take it for rare (ILIKE '%雨桐%' estimated 10k matches at 8
      // and chose a bitmap over 20k rows where walking the newest ids finds page 1 in 2k).
      // One or two characters: the typed value is its one piece, so holding it is holding the value. The
      // strpos beside the pieces changes no answer; it is there for the walk of the newest ids that a
      // common part's page takes: PostgreSQL runs the cheaper check first, so search_grams (PL/pgSQL,
      // ≈ 20 × strpos per row) runs only on rows that match, which halved the statement's execution.
      // Written `<> 0`, not `> 0`: the planner takes `<>` on an expression for 0.995 of the rows and
      // `>` for a third, so the estimate stays the pieces' own, within a few % (issue 32, bench:search).
      // Walking the newest ids (a part common in the caller's rows), strpos alone decides: the pieces
      // only narrow the rows for the index.
      if (isWholePiece(value)) return boundTerm('name-grams', [value], ([typed]) => sql`(strpos(lower(${column}), lower(${typed})) <> 0 and ${sql.raw(SEARCH_GRAMS)}(${column}) @> search_query_grams(${typed}))`, nameWalk(column));
      return boundTerm(NAME_STRPOS_SHAPE, [value], ([typed]) => sql`(${sql.raw(SEARCH_GRAMS)}(${column}) @> search_query_grams(${typed}) and strpos(lower(${column}), lower(${typed})) > 0)`, nameWalk(column));
    case 'code':
      return boundTerm('code', [containsPattern(value)], ([pattern]) => sql`${column} ilike ${pattern}`);
    case 'digits':
      return boundTerm('digits', [digitsMatchAnyPart(value) ? containsPattern(value) : prefixPattern(value)], ([pattern]) => sql`${column} like ${pattern}`);
  }
}

/** ORDER BY for a field: `name` fields in pinyin order where the database knows it. */
export function sortExpression(field: FieldDef | undefined, column: PgColumn, direction: 'asc' | 'desc'): SQL {
  const by = direction === 'asc' ? asc : desc;
  if (field?.filter === 'name') return by(sql`${column} collate ${sql.identifier(NAME_COLLATION)}`);
  return by(column);
}
