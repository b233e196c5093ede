/**
 * Parent and lines: the items of a `lines` field are written with their parent in the parent's
 * transaction (an Update that sends them replaces the stored set), checked line by line with paths
 * like `items.2.deviceClassCode`, priced and totalled by the server, and answered by Get in line order.
 */
import type { ResourceDef } from '@campus/contract';
import { and, asc, eq, inArray, type SQL } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { lineTable } from '../../db/schema/resources.js';
import { badRequest, msg, type FieldProblem } from '../../platform/errors.js';
import type { EngineContext, Row } from './context.js';
import { lineOwnerKey, type LinesField } from '../../db/schema/lines-table.js';
import { columnOf, fromDb, toDb } from './query.js';
import { referenceTargetOf, tableOf } from './registry.js';
import type { ResourceTable } from '../../db/schema/table.js';
import { referenceScope } from './reference-scope.js';
import type { Executor } from '../../db/client.js';

type LineReference = Extract<LinesField['fields'][string], { kind: 'reference' }>;

/** The lines fields of a family (an order has one: its items). */
export function linesFieldsOf(def: ResourceDef): [string, LinesField][] {
  return Object.entries(def.fields).filter((entry): entry is [string, LinesField] => entry[1].kind === 'lines');
}

function referencesOf(field: LinesField): [string, LineReference][] {
  return Object.entries(field.fields).filter((entry): entry is [string, LineReference] => entry[1].kind === 'reference');
}

/**
 * The rows the lines' references name, by key, that exist, lie in the caller's scope and match the
 * picker's `optionsFilter` — one query per reference field whatever the number of lines. Answers
 * each found row's price when the lines take their unit price from it.
 */
async function findReferenced(ctx: EngineContext, db: Executor, reference: LineReference, keys: unknown[], priceField?: string): Promise<Map<string, Row>> {
  const target = referenceTargetOf(reference);
  const conditions: (SQL | undefined)[] = [inArray(columnOf(target.table, target.key), keys), referenceScope(ctx, reference.family, target.table)];
  for (const [filterField, filterValue] of Object.entries(reference.optionsFilter ?? {})) conditions.push(eq(columnOf(target.table, filterField), filterValue));
  const columns: Record<string, AnyPgColumn> = { key: columnOf(target.table, target.key) };
  if (priceField) columns.price = columnOf(target.table, priceField);
  const found = (await db.select(columns).from(target.table).where(and(...conditions))) as Row[];
  return new Map(found.map((row) => [String(row.key), row]));
}

/** Checks every line's references and fills in the unit prices the server reads from them; throws the field errors of all lines. */
async function resolveLines(ctx: EngineContext, db: Executor, name: string, field: LinesField, lines: Row[]): Promise<Row[]> {
  const errors: FieldProblem[] = [];
  const resolved = lines.map((line) => ({ ...line }));
  for (const [refName, reference] of referencesOf(field)) {
    const keys = [...new Set(lines.map((line) => line[refName]).filter((v) => v !== undefined && v !== null))];
    if (keys.length === 0) continue;
    const priceField = field.amount?.priceFrom?.reference === refName ? field.amount.priceFrom.field : undefined;
    const found = await findReferenced(ctx, db, reference, keys, priceField);
    resolved.forEach((line, index) => {
      const key = line[refName];
      if (key === undefined || key === null) return;
      const row = found.get(String(key));
      const path = `${name}.${index}.${refName}`;
      if (!row) errors.push({ path, ...msg('validation.referenceNotFound', { field: reference.label }) });
      else if (priceField && (row.price === null || row.price === undefined)) errors.push({ path, ...msg('lines.noPrice', { field: reference.label }) });
      else if (priceField) line[field.amount!.unitPrice] = Number(row.price);
    });
  }
  if (errors.length) throw badRequest(errors);
  return resolved;
}

/** Sets each line's amount (quantity × unit price, in cents) and answers their sum. */
function computeAmounts(field: LinesField, lines: Row[]): number | undefined {
  const amount = field.amount;
  if (!amount) return undefined;
  let total = 0;
  for (const line of lines) {
    line[amount.into] = Number(line[amount.quantity] ?? 0) * Number(line[amount.unitPrice] ?? 0);
    total += Number(line[amount.into]);
  }
  return total;
}

/**
 * Stores the lines an Add or Update sent (replacing the owner's stored lines) and the parent's total,
 * inside the write's transaction; a bad line throws and the whole write rolls back. Lines not sent
 * (an Update of other fields) stay as they are.
 */
export async function writeLines(ctx: EngineContext, db: Executor, ownerId: number, values: Row): Promise<void> {
  for (const [name, field] of linesFieldsOf(ctx.def)) {
    const sent = values[name] as Row[] | undefined | null;
    if (sent === undefined || sent === null) continue;
    const lines = await resolveLines(ctx, db, name, field, sent);
    const total = computeAmounts(field, lines);
    const table = lineTable(ctx.def, name);
    const ownerKey = lineOwnerKey(ctx.def);
    // Replace, not diff: lines have no identity of their own and an order holds a few dozen at most.
    await db.delete(table).where(eq(columnOf(table, ownerKey), ownerId));
    if (lines.length > 0) {
      await db.insert(table).values(
        lines.map((line, index) => {
          const row: Row = { [ownerKey]: ownerId, lineNo: index + 1 };
          for (const [lineName, lineField] of Object.entries(field.fields)) row[lineName] = toDb(lineField, line[lineName]) ?? null;
          return row;
        }),
      );
    }
    if (total !== undefined) {
      const owner = tableOf(ctx.def);
      await db.update(owner).set({ [field.amount!.total]: total }).where(eq(columnOf(owner, 'id'), ownerId));
    }
  }
}

/** The stored lines of one owner in line order, with `${reference}Label` for each reference. */
async function readLines(ctx: EngineContext, name: string, field: LinesField, ownerId: number): Promise<Row[]> {
  const table = lineTable(ctx.def, name);
  const columns: Record<string, AnyPgColumn> = { lineNo: columnOf(table, 'lineNo') };
  const joins: { table: ResourceTable; on: SQL }[] = [];
  for (const [lineName, lineField] of Object.entries(field.fields)) {
    // Money is hidden where hideAmountColumns holds, as in the parent's own columns.
    if (ctx.probes.hideAmountColumns && lineField.kind === 'money') continue;
    columns[lineName] = columnOf(table, lineName);
    if (lineField.kind !== 'reference') continue;
    const target = referenceTargetOf(lineField);
    const joined = alias(target.table, `line_ref_${lineName}`) as unknown as ResourceTable;
    joins.push({ table: joined, on: eq(columnOf(joined, target.key), columnOf(table, lineName)) });
    columns[`${lineName}Label`] = columnOf(joined, target.display);
  }
  let query = ctx.db.select(columns).from(table).$dynamic();
  for (const join of joins) query = query.leftJoin(join.table, join.on);
  const rows = (await query.where(eq(columnOf(table, lineOwnerKey(ctx.def)), ownerId)).orderBy(asc(columnOf(table, 'lineNo')))) as Row[];
  return rows.map((row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, fromDb(field.fields[key], value)])));
}

/** A row as Get answers it: with the lines of each lines field (Search leaves them out to keep lists cheap). */
export async function withLines(ctx: EngineContext, row: Row): Promise<Row> {
  const fields = linesFieldsOf(ctx.def);
  if (fields.length === 0) return row;
  const completed = { ...row };
  for (const [name, field] of fields) completed[name] = await readLines(ctx, name, field, Number(row.id));
  return completed;
}
