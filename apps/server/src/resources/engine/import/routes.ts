/**
 * The import calls of every family declaring `import`, guarded by the page's `import` button:
 * `GET /api/{Family}/ImportTemplate` (the .xlsx template), `POST /api/{Family}/ImportPreview` (the dry
 * run) and `POST /api/{Family}/Import` (one transaction), the last two with the workbook as
 * multipart/form-data. The upload is staged on disk, never held in memory, and removed after the call.
 */
import multipart from '@fastify/multipart';
import { IMPORT_LIMITS, RESOURCES, formatServerMessage, importAnswerSchema, importPreviewSchema, importQuerySchema, resourcePath, viewQuerySchema, type ResourceDef } from '@campus/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { XLSX_CONTENT_TYPE, errorResponses, ok, xlsxResponse } from '../../../platform/envelope.js';
import { AppError, badRequest, msg } from '../../../platform/errors.js';
import { documentedCall, operationIdOf } from '../../../platform/route-docs.js';
import { megabytesText } from '../../../platform/uploads.js';
import { resolveContext, type EngineContext } from '../context.js';
import { previewImport, runImport } from './run-import.js';
import { importTemplate } from './template.js';

const contexts = new WeakMap<FastifyRequest, EngineContext>();

/** Resolves page, `import` button and scope before the body is read: a caller without the button gets 403 whatever it sent. */
function guard(def: ResourceDef) {
  return async (request: FastifyRequest) => {
    const view = (request.query as { view?: unknown }).view;
    contexts.set(request, await resolveContext(request, def, { view: typeof view === 'string' ? view : undefined, button: 'import' }));
  };
}

function contextOf(request: FastifyRequest): EngineContext {
  const ctx = contexts.get(request);
  if (!ctx) throw new Error('import route without guard');
  return ctx;
}

/** Stages the request's one workbook in the upload store's staging folder; answers its path and name. */
async function stageWorkbook(request: FastifyRequest): Promise<{ path: string; name: string }> {
  if (!request.isMultipart()) throw badRequest([], msg('import.noFile'));
  const staged = path.join(request.server.uploads.stagingDir, `import-${randomBytes(16).toString('hex')}`);
  let name = 'import.xlsx';
  try {
    const file = await request.file({ limits: { fileSize: IMPORT_LIMITS.maxFileBytes, files: 1, fields: 5, fieldSize: 1024 } });
    if (!file) throw badRequest([], msg('import.noFile'));
    name = (file.filename || name).slice(0, 200);
    await pipeline(file.file, createWriteStream(staged, { flags: 'wx' }));
    if (file.file.truncated) throw badRequest([], msg('import.fileTooLarge', { size: megabytesText(IMPORT_LIMITS.maxFileBytes) }));
  } catch (error) {
    await rm(staged, { force: true });
    // A broken form is the client's (400); a disk failure carries a syscall and stays the server's.
    if (error instanceof AppError || (error as { syscall?: unknown }).syscall !== undefined) throw error;
    throw badRequest([], msg('upload.malformed'));
  }
  return { path: staged, name };
}

/** Runs `work` on the staged workbook and removes it afterwards, whatever happened. */
async function withWorkbook<T>(request: FastifyRequest, work: (file: { path: string; name: string }) => Promise<T>): Promise<T> {
  const file = await stageWorkbook(request);
  try {
    return await work(file);
  } finally {
    await rm(file.path, { force: true });
  }
}

function registerImportRoutes(app: FastifyInstance, def: ResourceDef): void {
  const multipartBody = (verb: string, summary: string, data: Parameters<typeof documentedCall>[3]) => ({
    ...documentedCall(def.name, verb, summary, data),
    description: `multipart/form-data with one .xlsx file of at most ${megabytesText(IMPORT_LIMITS.maxFileBytes)} and ${IMPORT_LIMITS.maxRows} rows, laid out as ImportTemplate's first sheet.`,
    consumes: ['multipart/form-data'],
  });

  app.get(
    resourcePath(def.name, 'ImportTemplate'),
    {
      onRequest: guard(def),
      schema: { tags: [def.name], operationId: operationIdOf(def.name, 'ImportTemplate'), summary: `The .xlsx template to import ${def.label.en}`, querystring: viewQuerySchema, response: { 200: xlsxResponse, ...errorResponses } },
    },
    async (request, reply) => {
      const ctx = contextOf(request);
      const workbook = await importTemplate(ctx);
      const name = `${formatServerMessage('import.templateName', { family: def.label }, ctx.locale)}.xlsx`;
      const disposition = `attachment; filename="${def.name}-import-template.xlsx"; filename*=UTF-8''${encodeURIComponent(name)}`;
      reply.header('Content-Type', XLSX_CONTENT_TYPE).header('Content-Disposition', disposition);
      return reply.send(workbook);
    },
  );

  app.post(
    resourcePath(def.name, 'ImportPreview'),
    { onRequest: guard(def), schema: { ...multipartBody('ImportPreview', `Check an .xlsx of ${def.label.en} row by row without writing`, importPreviewSchema), querystring: viewQuerySchema } },
    async (request) => ok(await withWorkbook(request, (file) => previewImport(contextOf(request), file.path))),
  );

  app.post(
    resourcePath(def.name, 'Import'),
    { onRequest: guard(def), schema: { ...multipartBody('Import', `Import an .xlsx of ${def.label.en} in one transaction`, importAnswerSchema), querystring: importQuerySchema } },
    async (request) => {
      const skipInvalid = (request.query as { skipInvalid?: string }).skipInvalid === 'true';
      const run = await withWorkbook(request, (file) => runImport(contextOf(request), file.path, { skipInvalid, fileName: file.name }));
      return ok({ imported: run.ids.length, skipped: run.preview.invalid });
    },
  );
}

/** The import routes of every family declaring `import`, with a multipart parser of their own (no other route takes multipart). */
export async function importRoutes(app: FastifyInstance): Promise<void> {
  await app.register(multipart, { throwFileSizeLimit: false });
  for (const def of Object.values(RESOURCES)) {
    if (!def.import) continue;
    if (def.mode === 'log' || def.tree || Object.values(def.fields).some((field) => field.kind === 'lines')) {
      throw new Error(`${def.name}: import is for plain rows (no log, tree or lines family)`);
    }
    registerImportRoutes(app, def);
  }
}
