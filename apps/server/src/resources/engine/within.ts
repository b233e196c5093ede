/**
 * References that must lie in the same value of a field of the row being written (`within:
 * 'schoolId'`: a student's class belongs to the student's school). A row elsewhere is refused with
 * the answer a missing row gets, so another school's rows cannot be probed.
 */
import type { Label } from '@campus/contract';
import { and, inArray, eq, sql } from 'drizzle-orm';
import { badRequest, msg, type FieldProblem } from '../../platform/errors.js';
import type { EngineContext, Row } from './context.js';
import { storedLinks } from './links.js';
import { valueAfter } from './lookup.js';
import { columnOf } from './query.js';
import { referenceTargetOf } from './registry.js';
import type { Executor } from '../../db/client.js';

/** The answer to a reference that does not exist, is out of scope, or lies outside its `within`. */
export function referenceNotFound(path: string, label: Label): FieldProblem {
  return { path, ...msg('validation.referenceNotFound', { field: label }) };
}

/** Checks `within` references on Add and Update; a change of the `within` field re-checks the references the row keeps. */
export async function checkWithin(ctx: EngineContext, db: Executor, values: Row, existing?: Row): Promise<void> {
  const errors: FieldProblem[] = [];
  for (const [name, field] of Object.entries(ctx.def.fields)) {
    if (field.kind !== 'reference' || !field.within) continue;
    const isMoved = existing !== undefined && values[field.within] !== undefined && values[field.within] !== existing[field.within];
    if (values[name] === undefined && !isMoved) continue;
    const chosen =
      values[name] !== undefined ? values[name] : field.multiple ? await storedLinks(ctx, db, name, Number(existing!.id)) : existing![name];
    const ids = [...new Set((Array.isArray(chosen) ? chosen : [chosen]).filter((id) => id !== null && id !== undefined))];
    if (ids.length === 0) continue;
    const target = referenceTargetOf(field);
    const [found] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(target.table)
      .where(and(inArray(columnOf(target.table, target.key), ids), eq(columnOf(target.table, field.within), valueAfter(values, existing, field.within))));
    if (Number(found?.n ?? 0) !== ids.length) errors.push(referenceNotFound(name, field.label));
  }
  if (errors.length > 0) throw badRequest(errors);
}
