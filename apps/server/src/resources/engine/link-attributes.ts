/**
 * Links that carry values (`link.attributes`, a seller's level in a team): read best first, replaced
 * as a whole with their values after the same checks a reference gets (the target exists, the caller
 * may name it, its picker offers it) plus the link's own (no target twice, an exclusive target in one
 * owner only). Their calls are in link-routes.ts.
 */
import { linkListKey, type AttributedLinkField, type FieldDef } from '@campus/contract';
import { and, asc, eq, inArray, ne } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { linkFieldsOf } from '../../db/schema/link-table.js';
import { badRequest, msg, type FieldProblem } from '../../platform/errors.js';
import type { EngineContext, Row } from './context.js';
import { columnOf, linkColumns, toDb } from './query.js';
import { referenceScope } from './reference-scope.js';
import { referenceTargetOf, tableOf } from './registry.js';

type AttributedField = Extract<FieldDef, { kind: 'reference' }> & AttributedLinkField;

/** The link fields of a family whose links carry values. */
export function attributedLinksOf(ctx: Pick<EngineContext, 'def'>): [string, AttributedField][] {
  return linkFieldsOf(ctx.def).filter((entry): entry is [string, AttributedField] => entry[1].link.attributes !== undefined);
}

function attributedLink(ctx: Pick<EngineContext, 'def'>, name: string): AttributedField {
  const field = attributedLinksOf(ctx).find(([candidate]) => candidate === name)?.[1];
  if (!field) throw new Error(`${ctx.def.name}.${name} is no link with attributes`);
  return field;
}

/** One row's links with their values and the target's display value and details, best first (by `orderBy`, then id). */
export async function readLinkEntries(ctx: Pick<EngineContext, 'def'>, db: Executor, name: string, ownerId: number): Promise<Row[]> {
  const field = attributedLink(ctx, name);
  const { fields, orderBy, details = [] } = field.link.attributes;
  const { table, owner, target } = linkColumns(field);
  const referenced = referenceTargetOf(field);
  const key = columnOf(referenced.table, referenced.key);
  const columns = Object.fromEntries([
    [field.link.target, key],
    [field.display, columnOf(referenced.table, referenced.display)],
    ...Object.keys(fields).map((attribute) => [attribute, columnOf(table, attribute)]),
    ...details.map((detail) => [detail, columnOf(referenced.table, detail)]),
  ]);
  return (await db
    .select(columns)
    .from(table)
    .innerJoin(referenced.table, eq(key, target))
    .where(eq(owner, ownerId))
    .orderBy(asc(columnOf(table, orderBy)), asc(key))) as Row[];
}

/**
 * Replaces one row's links and their values in the caller's transaction (`db`). Field errors name the
 * entry (`members.2.userId`): a target listed twice, one the caller may not name or its picker does
 * not offer, or, for an exclusive link, one another row holds (naming that row).
 */
export async function replaceLinkEntries(ctx: EngineContext, db: Executor, name: string, ownerId: number, entries: Row[]): Promise<void> {
  const field = attributedLink(ctx, name);
  const { attributes } = field.link;
  const list = linkListKey(attributes);
  const { table, owner, target } = linkColumns(field);
  const ids = entries.map((entry) => Number(entry[field.link.target]));
  const pathOf = (position: number) => `${list}.${position}.${field.link.target}`;
  const errors: FieldProblem[] = ids.flatMap((id, position) => (ids.indexOf(id) === position ? [] : [{ path: pathOf(position), ...msg('validation.linkTwice', { field: field.label }) }]));
  if (ids.length > 0) {
    const referenced = referenceTargetOf(field);
    const key = columnOf(referenced.table, referenced.key);
    const offered = Object.entries(field.optionsFilter ?? {}).map(([filter, value]) => eq(columnOf(referenced.table, filter), value));
    const found = new Set((await db.select({ id: key }).from(referenced.table).where(and(inArray(key, ids), referenceScope(ctx, field.family, referenced.table), ...offered))).map((row) => Number(row.id)));
    ids.forEach((id, position) => {
      if (!found.has(id)) errors.push({ path: pathOf(position), ...msg('validation.referenceNotFound', { field: field.label }) });
    });
    if (attributes.exclusive) {
      const owners = tableOf(ctx.def);
      const elsewhere = await db
        .select({ id: target, title: columnOf(owners, ctx.def.titleField) })
        .from(table)
        .innerJoin(owners, eq(columnOf(owners, 'id'), owner))
        .where(and(inArray(target, ids), ne(owner, ownerId)));
      for (const other of elsewhere) {
        errors.push({ path: pathOf(ids.indexOf(Number(other.id))), ...msg('validation.linkedElsewhere', { family: ctx.def.label, title: String(other.title) }) });
      }
    }
  }
  if (errors.length > 0) throw badRequest(errors);
  await db.delete(table).where(eq(owner, ownerId));
  if (entries.length === 0) return;
  await db.insert(table).values(
    entries.map((entry) => ({
      [field.link.owner]: ownerId,
      [field.link.target]: Number(entry[field.link.target]),
      ...Object.fromEntries(Object.entries(attributes.fields).map(([attribute, definition]) => [attribute, toDb(definition, entry[attribute])])),
    })),
  );
}
