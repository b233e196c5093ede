/**
 * Multiple references kept in link tables by the engine (`link` on a `multiple` reference): written
 * with their row in the write's transaction, read back for a page in one query per field, and
 * filtered by one id with EXISTS. A caller only ever sees and changes the links to rows it may
 * reference: links to rows outside its view (another agent's schools) are kept and not shown.
 */
import { RESOURCES } from '@campus/contract';
import { and, asc, eq, inArray, notInArray, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { scopeCondition } from '../../platform/scope.js';
import { visibleFields, type EngineContext, type Row } from './context.js';
import { linkFieldsOf, type LinkField } from '../../db/schema/link-table.js';
import { allConditions, columnOf, linkColumns } from './query.js';
import { referenceScope } from './reference-scope.js';
import { referenceTargetOf } from './registry.js';
import type { Executor } from '../../db/client.js';

/**
 * The rows a link's target column may name for this caller: a condition, or none when it sees them
 * all. Only school data is hidden this way (a school, or rows carrying one); an account scope says who
 * manages an account, not whose name may be read, so a seller still sees its team's members.
 */
function visibleTargets(ctx: Pick<EngineContext, 'db' | 'scope' | 'user'>, field: LinkField, linkTarget: PgColumn): SQL | undefined {
  const targetDef = RESOURCES[field.family];
  if (!targetDef || (targetDef.scope.via !== 'self' && targetDef.scope.via !== 'school') || ctx.scope.kind === 'all') return undefined;
  if (targetDef.scope.via === 'self') return scopeCondition(ctx.scope, linkTarget);
  const target = referenceTargetOf(field);
  const reachable = ctx.db.select({ key: columnOf(target.table, target.key) }).from(target.table).where(referenceScope(ctx, field.family, target.table));
  return inArray(linkTarget, reachable);
}

/** Replaces the links of one row with the given ids, in the write's transaction (`db`); ids were checked by checkReferences. */
export async function writeLinks(ctx: EngineContext, db: Executor, ownerId: number, values: Row): Promise<void> {
  for (const [name, field] of linkFieldsOf(ctx.def)) {
    const given = values[name];
    if (!Array.isArray(given)) continue;
    const ids = [...new Set(given.map(Number))];
    const { table, owner, target } = linkColumns(field);
    const dropped = ids.length > 0 ? notInArray(target, ids) : undefined;
    await db.delete(table).where(allConditions(eq(owner, ownerId), dropped, visibleTargets(ctx, field, target)));
    if (ids.length > 0) {
      await db
        .insert(table)
        .values(ids.map((id) => ({ [field.link.owner]: ownerId, [field.link.target]: id })))
        .onConflictDoNothing();
    }
  }
}

/** Completes rows with each visible link field's ids (`field`) and display values (`${field}Label`): one query per field for the whole page. */
export async function readLinks(ctx: EngineContext, rows: Row[]): Promise<Row[]> {
  const visible = new Set(visibleFields(ctx).map(([name]) => name));
  const fields = linkFieldsOf(ctx.def).filter(([name]) => visible.has(name));
  if (fields.length === 0 || rows.length === 0) return rows;
  const ownerIds = rows.map((row) => Number(row.id));
  const completed = rows.map((row) => ({ ...row }));
  for (const [name, field] of fields) {
    const { table, owner, target } = linkColumns(field);
    const referenced = referenceTargetOf(field);
    const key = columnOf(referenced.table, referenced.key);
    const links = await ctx.db
      .select({ owner, id: key, label: columnOf(referenced.table, referenced.display) })
      .from(table)
      .innerJoin(referenced.table, eq(key, target))
      .where(and(inArray(owner, ownerIds), visibleTargets(ctx, field, target)))
      // Links with values read best first, as their own call answers them (a team's members by level).
      .orderBy(...(field.link.attributes ? [asc(columnOf(table, field.link.attributes.orderBy))] : []), asc(columnOf(table, 'id')));
    for (const row of completed) {
      const own = links.filter((link) => Number(link.owner) === Number(row.id));
      row[name] = own.map((link) => link.id);
      row[`${name}Label`] = own.map((link) => link.label);
    }
  }
  return completed;
}

/** The link ids a row holds now (for rules that re-check kept links), as far as the caller sees them. */
export async function storedLinks(ctx: EngineContext, db: Executor, name: string, ownerId: number): Promise<number[]> {
  const field = linkFieldsOf(ctx.def).find(([candidate]) => candidate === name)?.[1];
  if (!field) return [];
  const { table, owner, target } = linkColumns(field);
  const links = await db.select({ id: target }).from(table).where(allConditions(eq(owner, ownerId), visibleTargets(ctx, field, target)));
  return links.map((link) => Number(link.id));
}
