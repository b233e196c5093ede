/** Small reads the family rules share. */
import type { ResourceDef, StoredRowOf } from '@campus/contract';
import { eq } from 'drizzle-orm';
import type { Row } from './context.js';
import { columnOf } from './query.js';
import { tableOf } from './registry.js';
import type { Executor } from '../../db/client.js';

/** One stored row of a family by a column value, without scope (the caller checked scope already). */
export async function findBy<D extends ResourceDef>(db: Executor, def: D, field: string, value: unknown): Promise<StoredRowOf<D> | undefined> {
  const table = tableOf(def);
  const column = columnOf(table, field);
  const [row] = await db.select().from(table).where(eq(column, value)).limit(1);
  return row as StoredRowOf<D> | undefined;
}

/** The value a write will leave in a field: the new value if given, else the stored one. */
export function valueAfter<V extends Row, S extends Row, K extends keyof V & keyof S>(values: V, existing: S | undefined, field: K): Exclude<V[K], undefined> | S[K] | undefined {
  const written = values[field];
  return written !== undefined ? (written as Exclude<V[K], undefined>) : existing?.[field];
}
