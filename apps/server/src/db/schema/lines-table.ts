/**
 * The table of a `lines` field (an order's items), built from the field's declaration like a
 * family's table: the owner's id (deleted with the owner), the line's position, the line's fields.
 */
import { columnName, type FieldDef, type ResourceDef } from '@campus/contract';
import { index, integer, pgTable, uniqueIndex, type AnyPgColumn, type ExtraConfigColumn, type PgColumnBuilderBase } from 'drizzle-orm/pg-core';
import { id } from './columns.js';
import { columnBuilder, type ReferenceTarget, type ResourceTable } from './table.js';

export type LinesField = Extract<FieldDef, { kind: 'lines' }>;

/** The lines field of a family by name; a missing one is a programming error. */
export function linesFieldOf(def: ResourceDef, field: string): LinesField {
  const declared = def.fields[field];
  if (declared?.kind !== 'lines') throw new Error(`${def.name}.${field} is not a lines field`);
  return declared;
}

/** The line table's column naming its owner: `orderId` for the lines of Order. */
export function lineOwnerKey(def: ResourceDef): string {
  return `${def.name.charAt(0).toLowerCase()}${def.name.slice(1)}Id`;
}

/** Builds the drizzle table of a family's lines field; `owner` is the family's id column. */
export function linesTable(
  def: ResourceDef,
  field: string,
  refTarget: (field: FieldDef) => ReferenceTarget | undefined,
  owner: () => AnyPgColumn,
): ResourceTable {
  const lines = linesFieldOf(def, field);
  const ownerKey = lineOwnerKey(def);
  const columns: Record<string, PgColumnBuilderBase> = {
    id: id(),
    [ownerKey]: integer(columnName(ownerKey)).notNull().references(owner, { onDelete: 'cascade' }),
    lineNo: integer('line_no').notNull(),
  };
  for (const [name, lineField] of Object.entries(lines.fields)) columns[name] = columnBuilder(lines.table, name, lineField, refTarget);
  const table = pgTable(lines.table, columns, (t) => {
    const cols = t as unknown as Record<string, ExtraConfigColumn>;
    // Lines are read by owner in line order; the unique index answers that read and keeps positions distinct.
    const declared = (lines.indexes ?? []).map((fields) => {
      const on = fields.map((name) => {
        const column = cols[name];
        if (!column) throw new Error(`${def.name}.${field}: index names unknown line column '${name}'`);
        return column;
      });
      return index(`${lines.table}_${fields.map(columnName).join('_')}_idx`).on(on[0]!, ...on.slice(1));
    });
    return [uniqueIndex(`${lines.table}_${columnName(ownerKey)}_line_no_unique`).on(cols[ownerKey]!, cols.lineNo!), ...declared];
  });
  return table as unknown as ResourceTable;
}
