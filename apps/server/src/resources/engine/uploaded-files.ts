/**
 * Image and file fields may name only files uploaded in the writer's scope. A stored `/uploads/<key>`
 * is signed afresh in every answer carrying its row, so without this check one agent could put
 * another agent's key (a child's face photo) on its own row and read the file. Company staff may name
 * any file. A value the row already holds is no new reference: a form sends back what it read. A file
 * field's `recorded` fields are copied from its upload record (a package's hash and size).
 */
import { UPLOAD_AUDIO_TYPES, UPLOAD_DOCUMENT_TYPES, UPLOAD_PACKAGE_TYPES, UPLOAD_VIDEO_TYPES, isUploadUrl, uploadKeyOf, type FieldDef } from '@campus/contract';
import { and, eq, inArray } from 'drizzle-orm';
import { uploadedFiles } from '../../db/schema/index.js';
import { badRequest, msg, type FieldProblem } from '../../platform/errors.js';
import { scopeOwnerKey } from '../../platform/scope.js';
import type { EngineContext, Row } from './context.js';
import type { Executor } from '../../db/client.js';

/** Refuses, as field errors, new upload addresses whose file was not uploaded in the caller's scope (or not at all: the same answer). */
export async function checkUploadedFiles(ctx: EngineContext, db: Executor, values: Row, existing?: Row): Promise<void> {
  if (ctx.user.type === 'company') return;
  const named: { path: string; key: string }[] = [];
  for (const [name, field] of Object.entries(ctx.def.fields)) {
    const value = values[name];
    if ((field.kind !== 'image' && field.kind !== 'file') || typeof value !== 'string' || !isUploadUrl(value)) continue;
    if (existing && existing[name] === value) continue;
    named.push({ path: name, key: uploadKeyOf(value) });
  }
  if (named.length === 0) return;
  const found = await db
    .select({ key: uploadedFiles.key })
    .from(uploadedFiles)
    .where(and(inArray(uploadedFiles.key, named.map((file) => file.key)), eq(uploadedFiles.scopeKey, scopeOwnerKey(ctx.user))));
  const ours = new Set(found.map((row) => row.key));
  const errors: FieldProblem[] = named.filter((file) => !ours.has(file.key)).map((file) => ({ path: file.path, ...msg('validation.uploadNotInScope') }));
  if (errors.length > 0) throw badRequest(errors);
}

/** The extensions of the files each `files` kind takes. */
const EXTENSIONS: Record<NonNullable<Extract<FieldDef, { kind: 'file' }>['files']>, readonly string[]> = {
  video: Object.keys(UPLOAD_VIDEO_TYPES),
  audio: Object.keys(UPLOAD_AUDIO_TYPES),
  package: Object.keys(UPLOAD_PACKAGE_TYPES),
  document: Object.keys(UPLOAD_DOCUMENT_TYPES),
};

/** Sets the `recorded` fields of each file field given a new file, from its upload record; a file without one is refused on its field. */
export async function copyUploadRecords(ctx: EngineContext, db: Executor, values: Row, existing?: Row): Promise<Row> {
  const out = { ...values };
  const errors: FieldProblem[] = [];
  for (const [name, field] of Object.entries(ctx.def.fields)) {
    const value = values[name];
    if (field.kind !== 'file' || !field.recorded || value === undefined || value === existing?.[name]) continue;
    const key = typeof value === 'string' && isUploadUrl(value) ? uploadKeyOf(value) : '';
    const isOfKind = EXTENSIONS[field.files ?? 'video'].includes(key.slice(key.lastIndexOf('.') + 1));
    const [record] = isOfKind ? await db.select({ sha256: uploadedFiles.sha256, size: uploadedFiles.size }).from(uploadedFiles).where(eq(uploadedFiles.key, key)) : [];
    if (record?.sha256 && record.size !== null) Object.assign(out, { [field.recorded.sha256]: record.sha256, [field.recorded.size]: record.size });
    else errors.push({ path: name, ...msg(field.recorded.message ?? 'validation.uploadNotRecorded') });
  }
  if (errors.length > 0) throw badRequest(errors);
  return out;
}
