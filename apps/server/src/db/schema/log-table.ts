/**
 * Columns and indexes of a log family's table. Every search of a log reads one time range newest
 * first, so each index ends with (time, id): the scope key or a filter leads, the time range is then
 * one contiguous slice of the index and the page is its first entries, already in order.
 */
import { columnName, type ResourceDef } from '@campus/contract';
import { index, type ExtraConfigColumn, type IndexBuilder, type PgColumnBuilderBase } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.js';

/** The row stamps of a log: only when it was written (no updatedAt, no version: rows never change). */
export function logStamps(): Record<string, PgColumnBuilderBase> {
  return { createdAt: timestamptz('created_at').notNull().defaultNow() };
}

/** `(scope key, time, id)` and `(scope key?, filter, time, id)` per btree filter; any-part filters keep their GIN index. */
export function logIndexes(def: ResourceDef, cols: Record<string, ExtraConfigColumn>, scopeKey: string | undefined): [string, () => IndexBuilder][] {
  const time = def.log!.timeField;
  const name = (...parts: string[]) => `${def.table}_${parts.map(columnName).join('_')}_idx`;
  const indexes: [string, () => IndexBuilder][] = [];
  const at = cols[time]!;
  const scope = scopeKey ? cols[scopeKey] : undefined;
  const timeIndex = name(...(scopeKey ? [scopeKey] : []), time, 'id');
  indexes.push([timeIndex, () => (scope ? index(timeIndex).on(scope, at, cols.id!) : index(timeIndex).on(at, cols.id!))]);
  for (const [field, f] of Object.entries(def.fields)) {
    // `name` and `code` filters match any part: their GIN index is the table's (table.ts).
    if (!f.filter || f.filter === 'name' || f.filter === 'code' || f.filter === 'range' || field === scopeKey || f.kind === 'json') continue;
    const indexName = name(...(scopeKey ? [scopeKey] : []), field, time, 'id');
    const indexed = f.filter === 'digits' ? cols[field]!.op('text_pattern_ops') : cols[field]!;
    indexes.push([indexName, () => (scope ? index(indexName).on(scope, indexed, at, cols.id!) : index(indexName).on(indexed, at, cols.id!))]);
  }
  return indexes;
}
