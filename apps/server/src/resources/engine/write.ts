/** Add, Update, BatchDelete and toggles: permission and scope checked, validated, locked, logged. */
import { isStoredElsewhere, type FieldDef, type ResourceDef } from '@campus/contract';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.js';
import { badRequest, conflict, msg, notFound, type FieldProblem } from '../../platform/errors.js';
import { hashPassword } from '../../platform/passwords.js';
import { sealSecret } from '../../platform/sealed-secrets.js';
import type { EngineContext, Row } from './context.js';
import { announceWrite } from './live.js';
import { hooksOf, type WriteOperation } from './hooks.js';
import { allConditions, columnOf, scopeWhere, toDb, viewConditions } from './query.js';
import { writeLines } from './lines.js';
import { sameState, stateLabelOf } from './states.js';
import { checkAddress } from './regions.js';
import { columnKeyOf, referenceTargetOf, tableOf } from './registry.js';
import { referenceScope } from './reference-scope.js';
import { applyFollows, checkAgreements } from './follows.js';
import { applyCallerRules, checkFieldRules, refuseFixedChanges, refuseOtherWriters } from './field-rules.js';
import { writeLinks } from './links.js';
import { deleteTreeRows, placeTreeNode } from './tree.js';
import { readMediaLengths } from './media-lengths.js';
import { checkWithin } from './within.js';
import { checkUploadedFiles, copyUploadRecords } from './uploaded-files.js';
import { sanitizeRichFields } from './rich-text.js';
import { logOperation, updateRecords } from './services.js';

/**
 * Loads one row in scope, or answers 404: rows outside the scope are "not found", so ids cannot be
 * probed. `forUpdate`: the row is about to be written, so it is locked and must be one the caller
 * manages (an account shared with another scope is read, never written: platform/scope.ts).
 */
export async function loadInScope(ctx: EngineContext, db: Executor, id: number, forUpdate = false): Promise<Row> {
  const table = tableOf(ctx.def);
  const where = allConditions(eq(columnOf(table, 'id'), id), scopeWhere(ctx, table, forUpdate ? 'manage' : 'read'), viewConditions(ctx, table));
  const query = db.select().from(table).where(where);
  const [row] = forUpdate ? await query.for('update') : await query;
  if (!row) throw notFound(msg('error.recordNotFound', { family: ctx.def.label, id }));
  return row as Row;
}

/**
 * Checks every reference points at existing rows the caller may see and that its picker offers
 * (`optionsFilter`, e.g. an account of type agent); scope keys must stay in scope.
 */
export async function checkReferences(ctx: EngineContext, db: Executor, values: Row): Promise<void> {
  const errors: FieldProblem[] = [];
  for (const [name, field] of Object.entries(ctx.def.fields)) {
    const value = values[name];
    if (field.kind !== 'reference' || value === undefined || value === null) continue;
    const wanted = [...new Set(Array.isArray(value) ? value : [value])];
    if (wanted.length === 0) continue;
    const target = referenceTargetOf(field);
    const conditions = [inArray(columnOf(target.table, target.key), wanted), referenceScope(ctx, field.family, target.table)];
    for (const [filterField, filterValue] of Object.entries(field.optionsFilter ?? {})) conditions.push(eq(columnOf(target.table, filterField), filterValue));
    const [found] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(target.table)
      .where(and(...conditions));
    if (Number(found?.n ?? 0) !== wanted.length) errors.push({ path: name, ...(field.refusal ?? msg('validation.referenceNotFound', { field: field.label })) });
  }
  const key = ctx.def.scope.via === 'school' ? ctx.def.scope.field : undefined;
  if (key && ctx.scope.kind !== 'all' && (values[key] === null || (values[key] === undefined && !('id' in values)))) {
    errors.push({ path: key, ...msg('validation.schoolInScope') });
  }
  if (errors.length) throw badRequest(errors);
}

/**
 * Turns validated wire values into column values: passwords hashed, datetimes parsed; multiple
 * references and lines left out (they are no column: writeLinks and writeLines store them).
 */
async function toColumns(db: Executor, def: ResourceDef, values: Row): Promise<Row> {
  const out: Row = {};
  for (const [name, value] of Object.entries(values)) {
    const field: FieldDef | undefined = def.fields[name];
    if (!field) out[name] = value;
    else if (isStoredElsewhere(field)) continue;
    else if (field.kind === 'password') out[columnKeyOf(def, name)] = value ? await storedPassword(db, field, String(value)) : undefined;
    else out[name] = toDb(field, value);
  }
  return out;
}

/** A password as stored: a slow hash, or sealed when the server must read it back (an NVR's login). */
async function storedPassword(db: Executor, field: Extract<FieldDef, { kind: 'password' }>, value: string): Promise<string> {
  return field.sealed ? sealSecret(db, value) : hashPassword(value);
}

function changesOf(def: ResourceDef, before: Row | undefined, after: Row): Record<string, [unknown, unknown]> {
  const changes: Record<string, [unknown, unknown]> = {};
  for (const [name, value] of Object.entries(after)) {
    const field = def.fields[name];
    if (!field || value === undefined) continue;
    const old = before?.[name];
    if (field.kind === 'password') changes[name] = ['***', '***'];
    else if (String(old ?? '') !== String(value ?? '') || (old === null) !== (value === null)) changes[name] = [old ?? null, value];
  }
  return changes;
}

/** Writes one operation-log row in the caller's transaction. */
export async function recordOperation(db: Executor, ctx: EngineContext, action: string, ids: number[], changes: Record<string, unknown> = {}): Promise<void> {
  await logOperation(db, { userId: ctx.user.id, family: ctx.def.name, action, ids, changes });
}

async function prepare(ctx: EngineContext, db: Executor, op: WriteOperation, values: Row, existing?: Row): Promise<Row> {
  // A workflow's row starts in its initial state: only transitions move it (the schemas never accept it).
  const initial = op === 'add' && ctx.def.workflow ? { [ctx.def.workflow.field]: ctx.def.workflow.initial } : {};
  const given = sanitizeRichFields(ctx.def, { ...values, ...(op === 'add' ? (ctx.view.fixed ?? {}) : {}), ...initial });
  const hooks = hooksOf(ctx.def);
  refuseOtherWriters(ctx);
  refuseFixedChanges(ctx.def, given, existing);
  const allowed = applyCallerRules(ctx, given, existing);
  const located = await copyUploadRecords(ctx, db, await applyFollows(ctx, db, checkAddress(ctx.def, allowed, existing), existing), existing);
  const hooked = hooks.beforeWrite ? await hooks.beforeWrite({ ...ctx, db: db as Database }, { op, values: located, existing }) : located;
  const adjusted = await readMediaLengths(ctx, hooked, existing);
  checkFieldRules(ctx.def, adjusted, existing);
  await checkReferences(ctx, db, op === 'update' ? { ...adjusted, id: existing?.id } : adjusted);
  await checkWithin(ctx, db, adjusted, existing);
  await checkAgreements(ctx, db, adjusted, existing);
  await checkUploadedFiles(ctx, db, adjusted, existing);
  return placeTreeNode(ctx, db, adjusted, existing);
}

/** Sets the `numbered` fields of a row just added: prefix, business day (China) and the id in six digits. */
async function numberRow(db: Executor, def: ResourceDef, id: number): Promise<void> {
  const table = tableOf(def);
  const idColumn = columnOf(table, 'id');
  const numbers = Object.entries(def.fields).flatMap(([name, field]) =>
    field.kind === 'text' && field.numbered ? [[name, sql`${field.numbered.prefix} || to_char(now() AT TIME ZONE 'Asia/Shanghai', 'YYYYMMDD') || lpad(${idColumn}::text, 6, '0')`]] : [],
  );
  if (numbers.length > 0) await db.update(table).set(Object.fromEntries(numbers)).where(eq(idColumn, id));
}

/** Inserts a row; answers its id. */
export async function addRow(ctx: EngineContext, values: Row): Promise<{ id: number }> {
  const table = tableOf(ctx.def);
  let written: Row = {};
  const answer = await ctx.db.transaction(async (tx) => {
    const prepared = await prepare(ctx, tx, 'add', values);
    const [inserted] = await tx.insert(table).values(await toColumns(tx, ctx.def, prepared)).returning({ id: columnOf(table, 'id') });
    const id = Number(inserted!.id);
    await numberRow(tx, ctx.def, id);
    await writeLines(ctx, tx, id, prepared);
    await writeLinks(ctx, tx, id, prepared);
    await hooksOf(ctx.def).afterWrite?.({ ...ctx, db: tx as Database }, { op: 'add', ids: [id], values: prepared });
    await recordOperation(tx, ctx, 'add', [id], changesOf(ctx.def, undefined, prepared));
    written = { ...prepared, id };
    return { id };
  });
  announceWrite(ctx, [written]);
  return answer;
}

/** Updates a row if its version still matches; a stale version changes nothing and answers 409. */
export async function updateRow(ctx: EngineContext, input: Row & { id: number; version: number }): Promise<{ id: number; version: number }> {
  const { id, version, ...values } = input;
  let before: Row = {};
  const answer = await ctx.db.transaction(async (tx) => {
    const existing = await loadInScope(ctx, tx, id, true);
    before = existing;
    if (Number(existing.version) !== version) throw conflict(msg('error.staleVersion'));
    refuseUnlessInStates(ctx.def, 'editableIn', [existing]);
    const prepared = await prepare(ctx, tx, 'update', values, existing);
    const columns = Object.fromEntries(Object.entries(await toColumns(tx, ctx.def, prepared)).filter(([, v]) => v !== undefined));
    const [updated] = await updateRecords(tx, ctx.def, [id], { values: columns, expectedVersion: version, now: new Date() });
    await writeLines(ctx, tx, id, prepared);
    await writeLinks(ctx, tx, id, prepared);
    await hooksOf(ctx.def).afterWrite?.({ ...ctx, db: tx as Database }, { op: 'update', ids: [id], values: prepared, existing });
    await recordOperation(tx, ctx, 'update', [id], changesOf(ctx.def, existing, prepared));
    return { id, version: updated!.version };
  });
  announceWrite(ctx, [before]);
  return answer;
}

/** Locks the listed rows the caller manages; any id missing or outside that scope answers 404 and nothing changes. */
export async function lockRowsInScope(ctx: EngineContext, tx: Executor, ids: number[]): Promise<Row[]> {
  const table = tableOf(ctx.def);
  const unique = [...new Set(ids)];
  const rows = await tx
    .select()
    .from(table)
    .where(allConditions(inArray(columnOf(table, 'id'), unique), scopeWhere(ctx, table, 'manage'), viewConditions(ctx, table)))
    .for('update');
  if (rows.length !== unique.length) {
    const found = new Set(rows.map((r) => Number((r as Row).id)));
    throw notFound(msg('error.recordsNotFound', { ids: unique.filter((i) => !found.has(i)) }));
  }
  return rows as Row[];
}

/**
 * A workflow may allow Update or BatchDelete only in some states (an order once confirmed): rows in
 * another state answer 409 naming it, and nothing changes.
 */
function refuseUnlessInStates(def: ResourceDef, rule: 'editableIn' | 'deletableIn', rows: Row[]): void {
  const workflow = def.workflow;
  const allowed = workflow?.[rule];
  if (!workflow || !allowed) return;
  const refused = rows.filter((row) => !allowed.some((state) => sameState(row[workflow.field], state)));
  if (refused.length === 0) return;
  throw conflict(
    rule === 'editableIn'
      ? msg('error.notEditableInState', { state: stateLabelOf(def, refused[0]![workflow.field]) })
      : msg('error.notDeletableInState', { titles: refused.map((row) => String(row[def.titleField] ?? row.id)) }),
  );
}

/** Deletes all listed rows in one transaction, or none. */
export async function deleteRows(ctx: EngineContext, ids: number[]): Promise<{ deleted: number }> {
  const table = tableOf(ctx.def);
  let deleted: Row[] = [];
  const answer = await ctx.db.transaction(async (tx) => {
    const rows = await lockRowsInScope(ctx, tx, ids);
    deleted = rows;
    refuseOtherWriters(ctx);
    refuseUnlessInStates(ctx.def, 'deletableIn', rows);
    await hooksOf(ctx.def).beforeDelete?.({ ...ctx, db: tx as Database }, rows);
    await deleteTreeRows(ctx, tx, rows);
    await tx.delete(table).where(inArray(columnOf(table, 'id'), rows.map((r) => Number(r.id))));
    await recordOperation(tx, ctx, 'delete', rows.map((r) => Number(r.id)), {
      titles: rows.map((r) => r[ctx.def.titleField]),
    });
    return { deleted: rows.length };
  });
  announceWrite(ctx, deleted);
  const afterDelete = hooksOf(ctx.def).afterDelete;
  if (afterDelete) {
    try {
      await afterDelete(ctx, deleted);
    } catch (error) {
      ctx.server.log.error({ err: error, family: ctx.def.name }, 'work after a delete failed');
    }
  }
  return answer;
}

/** Sets a toggle field on all listed rows in one transaction. */
export async function setToggle(ctx: EngineContext, field: string, ids: number[], value: unknown): Promise<{ updated: number }> {
  const definition = ctx.def.fields[field]!;
  let toggled: Row[] = [];
  const answer = await ctx.db.transaction(async (tx) => {
    const rows = await lockRowsInScope(ctx, tx, ids);
    toggled = rows;
    refuseOtherWriters(ctx);
    await updateRecords(tx, ctx.def, rows.map((r) => Number(r.id)), { values: { [field]: toDb(definition, value) }, now: new Date() });
    await hooksOf(ctx.def).afterWrite?.({ ...ctx, db: tx as Database }, { op: 'toggle', ids: rows.map((r) => Number(r.id)), values: { [field]: value } });
    await recordOperation(tx, ctx, `set:${field}`, rows.map((r) => Number(r.id)), { [field]: [rows.map((r) => r[field]), value] });
    return { updated: rows.length };
  });
  announceWrite(ctx, toggled);
  return answer;
}
