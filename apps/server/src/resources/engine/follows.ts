/**
 * Fields that follow another reference of the row (`follows`, e.g. `schoolRef({ from: 'studentId' })`):
 * the server copies them from the referenced row, read in the write's transaction and the caller's
 * scope, so the row's scope key is always the one of what it refers to. A value a client or hook
 * put there is never used. A `defaultFrom` field is filled the same way on Add, but only when empty,
 * and an `agrees` field is compared with the referenced row's value.
 */
import type { FieldDef } from '@campus/contract';
import { and, eq } from 'drizzle-orm';
import { badRequest, msg } from '../../platform/errors.js';
import type { EngineContext, Row } from './context.js';
import { valueAfter } from './lookup.js';
import { columnOf } from './query.js';
import { referenceScope } from './reference-scope.js';
import { referenceTargetOf } from './registry.js';
import { referenceNotFound } from './within.js';
import type { Executor } from '../../db/client.js';

type ReferenceField = Extract<FieldDef, { kind: 'reference' }>;

/** The row a reference field names, with its `source` field as `value`, in the caller's scope; undefined outside it. */
async function referencedRow(ctx: EngineContext, db: Executor, reference: string, referenceValue: unknown, source: string): Promise<{ value: unknown } | undefined> {
  const referenced = ctx.def.fields[reference] as ReferenceField;
  const target = referenceTargetOf(referenced);
  const [row] = await db
    .select({ value: columnOf(target.table, source) })
    .from(target.table)
    .where(and(eq(columnOf(target.table, target.key), referenceValue), referenceScope(ctx, referenced.family, target.table)))
    .limit(1);
  return row;
}

/**
 * Sets each following field from its reference's row (on Update only when that reference changes),
 * and on Add each empty field with a `defaultFrom` from the row its reference names.
 */
export async function applyFollows(ctx: EngineContext, db: Executor, values: Row, existing?: Row): Promise<Row> {
  const out = { ...values };
  for (const [name, field] of Object.entries(ctx.def.fields)) {
    const from = field.defaultFrom;
    if (from && !existing && (out[name] === undefined || out[name] === null) && out[from.reference] !== undefined && out[from.reference] !== null) {
      // A row out of reach leaves the field empty: the reference check refuses it after.
      out[name] = (await referencedRow(ctx, db, from.reference, out[from.reference], from.field))?.value ?? null;
    }
    if (!field.follows) continue;
    delete out[name];
    const { reference, field: source, refuseEmpty } = field.follows;
    if (existing && values[reference] === undefined) continue;
    const referenceValue = valueAfter(values, existing, reference);
    if (referenceValue === null || referenceValue === undefined) continue;
    const referenced = ctx.def.fields[reference] as ReferenceField;
    const row = await referencedRow(ctx, db, reference, referenceValue, source);
    if (!row) throw badRequest([referenceNotFound(reference, referenced.label)]);
    if (refuseEmpty && (row.value === null || row.value === undefined)) {
      throw badRequest([{ path: reference, ...msg('validation.followedEmpty', { reference: referenced.label, field: field.label }) }]);
    }
    out[name] = row.value;
  }
  return out;
}

/**
 * Refuses, on the field, each `agrees` field whose value (or its `of` field's) does not equal or start
 * with the referenced row's; a reference that is empty or out of reach is left to the reference check.
 */
export async function checkAgreements(ctx: EngineContext, db: Executor, values: Row, existing?: Row): Promise<void> {
  const problems = [];
  for (const [name, field] of Object.entries(ctx.def.fields)) {
    if (!field.agrees) continue;
    const { reference, field: source, is, of = name, message } = field.agrees;
    const [referenceValue, value] = [valueAfter(values, existing, reference), valueAfter(values, existing, of)];
    if ([referenceValue, value].some((one) => one === null || one === undefined || one === '')) continue;
    const expected = (await referencedRow(ctx, db, reference, referenceValue, source))?.value;
    if (expected === null || expected === undefined) continue;
    const agrees = is === 'prefix' ? String(value).startsWith(String(expected)) : String(value) === String(expected);
    if (!agrees) problems.push({ path: name, ...msg(message, { expected: String(expected) }) });
  }
  if (problems.length > 0) throw badRequest(problems);
}
