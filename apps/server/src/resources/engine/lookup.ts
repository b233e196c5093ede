/** Small reads the family rules share. */
import type { ResourceDef } from '@campus/contract';
import { eq } from 'drizzle-orm';
import type { Row } from './context.js';
import { columnOf } from './query.js';
import { tableOf } from './registry.js';
import type { Executor } from './write.js';

/** One row of a family by a column value, without scope (the caller checked scope already). */
export async function findBy(db: Executor, def: ResourceDef, field: string, value: unknown): Promise<Row | undefined> {
  const table = tableOf(def);
  const column = columnOf(table, field);
  const [row] = await db.select().from(table).where(eq(column, value)).limit(1);
  return row as Row | undefined;
}

/** The value a write will leave in a field: the new value if given, else the stored one. */
export function valueAfter(values: Row, existing: Row | undefined, field: string): unknown {
  return values[field] !== undefined ? values[field] : existing?.[field];
}
