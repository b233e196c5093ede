/**
 * The operation log reads like the lists: an entry keeps the raw ids the engine wrote it with (record 15,
 * assignee 1; services.ts and write.ts give its shape), and on read each entry gets what those ids are called today — the records' titles
 * (a ticket's WX… number) and the names of referenced rows in its changes. Resolved on read rather
 * than copied into the entry, so the writer stays one insert and a renamed user reads by the new name.
 */
import { RESOURCES, isStoredElsewhere, loggedFieldsOf, type FieldDef, type OperationLogLabels, type ResourceDef } from '@campus/contract';
import { inArray } from 'drizzle-orm';
import type { EngineContext, Row } from './context.js';
import { columnOf } from './query.js';
import { referenceTargetOf, tableOf, type ReferenceJoin } from './registry.js';

type ReferenceField = Extract<FieldDef, { kind: 'reference' }>;

/** Scalars of a logged change: `[before, after]`, a toggle's `[[olds], new]`, or a transition's plain value. */
function scalarsOf(change: unknown, into: Set<string | number>): void {
  if (Array.isArray(change)) for (const one of change) scalarsOf(one, into);
  else if (typeof change === 'number' || (typeof change === 'string' && change !== '')) into.add(change);
}

/** The display value of each of `values` in the target, as text by raw value; rows gone since are left out. */
async function namesOf(ctx: EngineContext, target: ReferenceJoin, values: Iterable<string | number>): Promise<Record<string, string>> {
  const wanted = [...values];
  if (wanted.length === 0) return {};
  const key = columnOf(target.table, target.key);
  const display = columnOf(target.table, target.display);
  const found = await ctx.db.select({ key, display }).from(target.table).where(inArray(key, wanted));
  return Object.fromEntries(found.filter((row) => row.display !== null).map((row) => [String(row.key), String(row.display)]));
}

/** The titles of rows of a family by id: its title field, or a referenced row's name when the title is a reference. */
async function titlesOf(ctx: EngineContext, def: ResourceDef, ids: Set<number>): Promise<Record<string, string>> {
  const titleField = def.titleField;
  const field = titleField ? def.fields[titleField] : undefined;
  if (!titleField || !field || isStoredElsewhere(field) || ids.size === 0) return {};
  const table = tableOf(def);
  if (!(titleField in table)) return {};
  const id = columnOf(table, 'id');
  const rows = await ctx.db.select({ id, title: columnOf(table, titleField) }).from(table).where(inArray(id, [...ids]));
  if (field.kind !== 'reference' || field.multiple) return Object.fromEntries(rows.filter((row) => row.title !== null).map((row) => [String(row.id), String(row.title)]));
  const names = await namesOf(ctx, referenceTargetOf(field), new Set(rows.map((row) => row.title as string | number).filter((value) => value !== null)));
  return Object.fromEntries(rows.flatMap((row) => (names[String(row.title)] ? [[String(row.id), names[String(row.title)]!]] : [])));
}

/** The labels of a page of entries: one query per family of records and per referenced target, not per entry. */
export async function operationLogLabels(ctx: EngineContext, rows: Row[]): Promise<OperationLogLabels[]> {
  const idsByFamily = new Map<string, Set<number>>();
  const wantedByTarget = new Map<string, { target: ReferenceJoin; values: Set<string | number> }>();
  const referencesOf = (row: Row): [string, ReferenceField][] => {
    const def = RESOURCES[String(row.family)];
    const changes = row.changes;
    if (!def || !changes || typeof changes !== 'object') return [];
    const fields = loggedFieldsOf(def);
    return Object.keys(changes).flatMap((name) => {
      const field = fields[name];
      return field?.kind === 'reference' ? [[name, field] as [string, ReferenceField]] : [];
    });
  };
  const targetKey = (field: ReferenceField) => `${field.family}.${field.key ?? 'id'}.${field.display}`;
  for (const row of rows) {
    const family = String(row.family);
    if (RESOURCES[family] && Array.isArray(row.ids)) {
      const ids = idsByFamily.get(family) ?? new Set<number>();
      for (const id of row.ids) ids.add(Number(id));
      idsByFamily.set(family, ids);
    }
    for (const [name, field] of referencesOf(row)) {
      const key = targetKey(field);
      const wanted = wantedByTarget.get(key) ?? { target: referenceTargetOf(field), values: new Set() };
      scalarsOf((row.changes as Record<string, unknown>)[name], wanted.values);
      wantedByTarget.set(key, wanted);
    }
  }
  const titles = new Map<string, Record<string, string>>();
  for (const [family, ids] of idsByFamily) titles.set(family, await titlesOf(ctx, RESOURCES[family]!, ids));
  const names = new Map<string, Record<string, string>>();
  for (const [key, { target, values }] of wantedByTarget) names.set(key, await namesOf(ctx, target, values));

  return rows.map((row) => {
    const familyTitles = titles.get(String(row.family)) ?? {};
    const records = Object.fromEntries((Array.isArray(row.ids) ? row.ids : []).flatMap((id) => (familyTitles[String(id)] ? [[String(id), familyTitles[String(id)]!]] : [])));
    const values: Record<string, Record<string, string>> = {};
    for (const [name, field] of referencesOf(row)) {
      const mentioned = new Set<string | number>();
      scalarsOf((row.changes as Record<string, unknown>)[name], mentioned);
      const known = names.get(targetKey(field)) ?? {};
      const named = [...mentioned].flatMap((value) => (known[String(value)] ? [[String(value), known[String(value)]!]] : []));
      if (named.length > 0) values[name] = Object.fromEntries(named);
    }
    return { records, values };
  });
}
