/**
 * Conditions with their values kept apart from their SQL, so a Search's statement can be built once
 * per shape and run again with new values (resources/engine/search-statement.ts): building a
 * statement's SQL text anew on every call was a quarter of a Search's Node time (docs/performance.md).
 */
import { and, or, sql, type SQL } from 'drizzle-orm';

/** Whole numbers as PostgreSQL's text of an `int[]` (`{1,2}`), the value of a parameter cast to it. Refuses anything but safe integers. */
export function intArrayText(values: Iterable<number>): string {
  const list = [...values];
  for (const value of list) if (!Number.isSafeInteger(value)) throw new Error(`an int[] parameter holds whole numbers, not ${value}`);
  return `{${list.join(',')}}`;
}

/**
 * Whole numbers as one `int[]` parameter (`= any(…)`, `unnest(…)`): the statement's text is the same
 * for any number of them, where `in (…)` writes one parameter each.
 */
export function intArray(values: Iterable<number>): SQL {
  return sql`${intArrayText(values)}::int[]`;
}

/**
 * A condition: the values it binds, and its SQL over parameters standing for them (the values
 * themselves, or placeholders of a prepared statement). `shape` names what the SQL text depends on
 * besides the family, view and order; it is undefined where the values are inside the SQL (a hook's
 * condition), and a statement holding such a term is built anew each call.
 */
export interface Term {
  shape: string | undefined;
  values: readonly unknown[];
  sql(params: readonly unknown[]): SQL;
  /**
   * The same condition written so that no index serves it: the plan then walks the order's key and
   * checks each row, with no index weighed against the values (resources/engine/search-statement.ts).
   * Absent where the condition has no such form.
   */
  walk?(params: readonly unknown[]): SQL;
}

/** A condition whose SQL holds its values, or holds none: `shape` set only for the latter (constant SQL). */
export function fixedTerm(condition: SQL, shape?: string, walk?: SQL): Term {
  return { shape, values: [], sql: () => condition, ...(walk && { walk: () => walk }) };
}

/** A condition over `values`, written by `sql` around whatever stands for them (and by `walk` for a walk of the order's key). */
export function boundTerm(shape: string, values: readonly unknown[], sql: (params: readonly unknown[]) => SQL, walk?: (params: readonly unknown[]) => SQL): Term {
  return { shape, values, sql, ...(walk && { walk }) };
}

/** The condition with its own values in it. */
export function termSql(term: Term): SQL {
  return term.sql(term.values);
}

function joined(combine: (...parts: SQL[]) => SQL | undefined, joiner: string, terms: Term[]): Term {
  const shapes = terms.map((term) => term.shape);
  const written = (write: (term: Term, params: readonly unknown[]) => SQL) => (params: readonly unknown[]) => {
    let next = 0;
    return combine(...terms.map((term) => write(term, params.slice(next, (next += term.values.length)))))!;
  };
  const walks = terms.every((term) => term.walk);
  return {
    shape: shapes.includes(undefined) ? undefined : `${joiner}(${shapes.join(',')})`,
    values: terms.flatMap((term) => term.values),
    sql: written((term, params) => term.sql(params)),
    ...(walks && { walk: written((term, params) => term.walk!(params)) }),
  };
}

/** All of the terms. */
export const allOf = (terms: Term[]): Term => joined(and, 'and', terms);

/** Any of the terms. */
export const anyOf = (terms: Term[]): Term => joined(or, 'or', terms);
