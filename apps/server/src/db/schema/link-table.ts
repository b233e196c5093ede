/**
 * The drizzle table of a link table, derived from the `link` of a multiple reference, so the
 * declaration names the table and its two columns once. Hand-written families' link tables (an
 * account's schools, a team's members) are built here too and may add columns (a member's level).
 */
import { columnName, type FieldDef, type LinkDef, type ResourceDef } from '@campus/contract';
import { index, integer, pgTable, uniqueIndex, type AnyPgColumn, type PgColumnBuilderBase } from 'drizzle-orm/pg-core';
import { id, timestamptz } from './columns.js';
import type { ResourceTable } from './table.js';

/** A multiple reference whose link table the engine keeps. */
export type LinkField = Extract<FieldDef, { kind: 'reference' }> & { link: LinkDef };

/** The link fields of a family. */
export function linkFieldsOf(def: ResourceDef): [string, LinkField][] {
  return Object.entries(def.fields).filter((entry): entry is [string, LinkField] => entry[1].kind === 'reference' && entry[1].multiple === true && entry[1].link !== undefined);
}

const linkTables = new Map<string, ResourceTable>();

/** The drizzle table of a declared link table; one the schema never built is a programming error. */
export function linkTableNamed(name: string): ResourceTable {
  const table = linkTables.get(name);
  if (!table) throw new Error(`no link table ${name}: build it with linkTable() in db/schema`);
  return table;
}

const idColumn = (name: string, target: () => AnyPgColumn) =>
  integer(columnName(name))
    .notNull()
    // Links go with either side: deleting the owner or the target removes them.
    .references(target, { onDelete: 'cascade' });

/**
 * Builds the link table of `def.fields[field]`: id, owner and target (both cascading), created_at,
 * unique (owner, target) and an index on target for "whose links name this row" filters.
 */
export function linkTable<const Owner extends string, const Target extends string, Extra extends Record<string, PgColumnBuilderBase> = Record<never, never>>(
  link: { table: string; owner: Owner; target: Target },
  references: { owner: () => AnyPgColumn; target: () => AnyPgColumn },
  extra: Extra = {} as Extra,
) {
  const bare = (column: string) => columnName(column).replace(/_id$/, '');
  const columns = {
    id: id(),
    ...({ [link.owner]: idColumn(link.owner, references.owner) } as Record<Owner, ReturnType<typeof idColumn>>),
    ...({ [link.target]: idColumn(link.target, references.target) } as Record<Target, ReturnType<typeof idColumn>>),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    ...extra,
  };
  const table = pgTable(link.table, columns, (table) => {
    const byName = table as unknown as Record<string, AnyPgColumn>;
    return [
      uniqueIndex(`${link.table}_${bare(link.owner)}_${bare(link.target)}_unique`).on(byName[link.owner]!, byName[link.target]!),
      index(`${link.table}_${columnName(link.target)}_idx`).on(byName[link.target]!),
    ];
  });
  linkTables.set(link.table, table as unknown as ResourceTable);
  return table;
}
