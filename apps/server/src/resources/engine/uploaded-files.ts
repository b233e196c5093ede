/**
 * Image and file fields may name only files uploaded in the writer's scope. A stored `/uploads/<key>`
 * is signed afresh in every answer carrying its row, so without this check one agent could put
 * another agent's key (a child's face photo) on its own row and read the file. Company staff may name
 * any file. A value the row already holds is no new reference: a form sends back what it read.
 */
import { isUploadUrl, uploadKeyOf } from '@campus/contract';
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
