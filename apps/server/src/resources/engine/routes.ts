/** The generic routes of every declared family, with the paths of ARCHITECTURE "Calls and errors". */
import {
  addSchemaOf,
  builtOnce,
  deletedAnswerSchema,
  exportQuerySchemaOf,
  fieldValueSchema,
  idAnswerSchema,
  idListSchema,
  isLogFamily,
  md5HexSchema,
  optionsQuerySchema,
  referenceOptionsSchema,
  resourcePath,
  rowSchemaOf,
  searchAnswerSchemaOf,
  searchSchemaOf,
  toggleBodySchema,
  toggleVerb,
  updateSchemaOf,
  updatedAnswerSchema,
  versionAnswerSchema,
  viewQuerySchema,
  idQuerySchema,
  idSchema,
  type ButtonValue,
  type ReferenceOption,
  type ResourceDef,
} from '@campus/contract';
import { asc, eq, ilike, type SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest, msg } from '../../platform/errors.js';
import { checkRefundPassword } from '../../platform/refund-password.js';
import { containsPattern } from '../../platform/like-patterns.js';
import { ok } from '../../platform/envelope.js';
import { documentedCall, documentedExport } from '../../platform/route-docs.js';
import { getRequestState } from '../../platform/caller-state.js';
import { resolveContext, type EngineContext, type Row } from './context.js';
import { exportWorkbook } from './export.js';
import { sendWorkbook } from '../../platform/attachments.js';
import { readLinks } from './links.js';
import { registerTreeRoutes } from './tree-routes.js';
import { registerLinkRoutes } from './link-routes.js';
import { hooksOf } from './hooks.js';
import { requireOptionsAccess } from './options-access.js';
import { withLines } from './lines.js';
import { registerLogRoutes } from './log-routes.js';
import { COUNT_CAP, allConditions, columnOf, filterWhere, scopeWhere, searchTerms, selectRows, toWire, viewConditions } from './query.js';
import { searchAskOf, whereOf } from './search-statement.js';
import { searchPage } from './search-counts.js';
import { tableOf } from './registry.js';
import { addRow, deleteRows, loadInScope, setToggle, updateRow } from './write.js';
import { refuseOtherWriters } from './field-rules.js';
import { registerWorkflowRoutes } from './workflow-routes.js';

const contexts = new WeakMap<FastifyRequest, EngineContext>();

/**
 * Resolves the caller's page, button and scope before the body is validated, so a caller without
 * the button gets 403 whatever it sent (onRequest runs after authentication, before validation).
 */
function guard(def: ResourceDef, button?: ButtonValue) {
  return async (request: FastifyRequest) => {
    const view = (request.query as { view?: unknown }).view;
    contexts.set(request, await resolveContext(request, def, { view: typeof view === 'string' ? view : undefined, button }));
  };
}

/** The context the route's guard resolved. */
function contextOf(request: FastifyRequest): EngineContext {
  const ctx = contexts.get(request);
  if (!ctx) throw new Error('resource route without guard');
  return ctx;
}

/** What rows read after their own columns: their links, then the family's afterRead hook. */
export async function readRowExtras(ctx: EngineContext, rows: Row[]): Promise<Row[]> {
  const afterRead = hooksOf(ctx.def).afterRead;
  const linked = await readLinks(ctx, rows);
  return afterRead && rows.length > 0 ? await afterRead(ctx, linked) : linked;
}

/** A family's image and file fields, whose addresses an answer signs. */
const mediaFieldsOf = builtOnce((def: ResourceDef) => Object.keys(def.fields).filter((name) => def.fields[name]!.kind === 'image' || def.fields[name]!.kind === 'file'));

/**
 * Rows in wire form, completed with their link fields and by the family's afterRead, with
 * uploaded files' addresses signed so the caller's browser can open them for a while.
 */
async function completeRows(request: FastifyRequest, ctx: EngineContext, rows: Row[]): Promise<Row[]> {
  const completed = await readRowExtras(ctx, rows);
  const media = mediaFieldsOf(ctx.def);
  if (media.length === 0) return completed;
  const signer = await request.server.mediaUrls();
  return completed.map((row) => {
    // Copied only when it holds a file to sign: most rows of a page have none.
    if (!media.some((name) => typeof row[name] === 'string')) return row;
    const signed = { ...row };
    for (const name of media) if (typeof signed[name] === 'string') signed[name] = signer.sign(signed[name]);
    return signed;
  });
}

/**
 * `POST /api/{Family}/{verb}` `{ id, ...fields }` of each declared action, run by the family's
 * handler; a family of any kind (a log's acknowledgement too). A declared action without a handler
 * stops the server at start.
 */
function registerActionRoutes(parent: FastifyInstance, def: ResourceDef): void {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  for (const action of def.actions ?? []) {
    if (!hooksOf(def).actions?.[action.verb]) throw new Error(`${def.name}.${action.verb} has no handler`);
    const shape: Record<string, z.ZodType> = { id: idSchema };
    for (const [name, field] of Object.entries(action.fields ?? {})) {
      shape[name] = field.required ? fieldValueSchema(field) : fieldValueSchema(field).optional();
    }
    if (action.reauth) shape.reauthPassword = md5HexSchema;
    const schema = { ...documentedCall(def.name, action.verb, action.label.en, z.unknown()), querystring: viewQuerySchema, body: z.strictObject(shape) };
    app.post(resourcePath(def.name, action.verb), { onRequest: guard(def, action.button), schema }, async (request) => {
      const ctx = contextOf(request);
      const { id, reauthPassword, ...input } = request.body as Row & { id: number; reauthPassword?: string };
      const handler = hooksOf(def).actions?.[action.verb];
      if (!handler) throw badRequest([], msg('error.unknownAction', { action: action.verb }));
      // A row outside the scope is 404 before the family's writers are weighed, so the refusal tells nothing of the row.
      if (ctx.def.writers) {
        await loadInScope(ctx, ctx.db, id);
        refuseOtherWriters(ctx);
      }
      // As a refund transition: a row outside the scope is 404 before the password is weighed, so its answer tells nothing of the row.
      if (action.reauth) {
        await loadInScope(ctx, ctx.db, id);
        await checkRefundPassword(ctx.db, ctx.user.id, reauthPassword, ctx.clock.now());
      }
      return ok(await handler(ctx, id, input));
    });
  }
}

/** Registers Search, Get, Add, Update, BatchDelete, Export, Options, toggles and actions of one family. */
export function registerResourceRoutes(parent: FastifyInstance, def: ResourceDef): void {
  if (isLogFamily(def)) {
    registerLogRoutes(parent, def, { guard, contextOf, completeRows });
    return registerActionRoutes(parent, def);
  }
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const path = (verb: string) => resourcePath(def.name, verb);
  const table = tableOf(def);
  const searchSchema = searchSchemaOf(def);
  const docs = (verb: string, summary: string, data: z.ZodType) => documentedCall(def.name, verb, summary, data);


  app.post(path('Search'), { onRequest: guard(def), schema: { ...docs('Search', `Search ${def.label.en}: one page and the bounded count`, searchAnswerSchemaOf(def)), querystring: viewQuerySchema, body: searchSchema } }, async (request) => {
    const ctx = contextOf(request);
    const { pageIndex, pageSize, sortField, sortOrder, ...filters } = request.body as z.infer<typeof searchSchema> & Row;
    // Pages end where the bounded count does: deeper OFFSETs cost more with every page and nobody reads them.
    if ((pageIndex - 1) * pageSize >= COUNT_CAP) {
      throw badRequest([{ path: 'pageIndex', ...msg('error.tooManyPages', { cap: COUNT_CAP }) }]);
    }
    const ask = searchAskOf(ctx, filters, sortField as string | undefined, sortOrder as 'asc' | 'desc' | undefined);
    const { rows, ...total } = await searchPage(ctx, ask, filters, pageSize, (pageIndex - 1) * pageSize);
    return ok({ items: await completeRows(request, ctx, rows), ...total });
  });

  app.get(path('Get'), { onRequest: guard(def), schema: { ...docs('Get', `One row of ${def.label.en}, with its lines and links`, rowSchemaOf(def)), querystring: idQuerySchema } }, async (request) => {
    const ctx = contextOf(request);
    const [row] = await selectRows(ctx, allConditions(eq(columnOf(table, 'id'), request.query.id), scopeWhere(ctx, table), viewConditions(ctx, table)));
    if (!row) await loadInScope(ctx, ctx.db, request.query.id); // answers the 404
    const [completed] = await completeRows(request, ctx, [toWire(def, row as Row)]);
    return ok(await withLines(ctx, completed!));
  });

  app.post(path('Add'), { onRequest: guard(def, 'add'), schema: { ...docs('Add', `Add a row of ${def.label.en}`, idAnswerSchema), querystring: viewQuerySchema, body: addSchemaOf(def) } }, async (request) => {
    return ok(await addRow(contextOf(request), request.body as Row));
  });

  app.post(path('Update'), { onRequest: guard(def, 'update'), schema: { ...docs('Update', `Update a row of ${def.label.en} at the version read`, versionAnswerSchema), querystring: viewQuerySchema, body: updateSchemaOf(def) } }, async (request) => {
    return ok(await updateRow(contextOf(request), request.body as Row & { id: number; version: number }));
  });

  app.post(path('BatchDelete'), { onRequest: guard(def, 'delete'), schema: { ...docs('BatchDelete', `Delete rows of ${def.label.en}, all or none`, deletedAnswerSchema), querystring: viewQuerySchema, body: idListSchema } }, async (request) => {
    return ok(await deleteRows(contextOf(request), request.body));
  });

  app.get(path('Export'), { onRequest: guard(def, 'export'), schema: { ...documentedExport(def.name, `Export ${def.label.en} as .xlsx`), querystring: exportQuerySchemaOf(def) } }, async (request, reply) => {
    const { maxCount, view: _view, sortField, sortOrder, lang: _lang, ...filters } = request.query as Row & {
      maxCount: number;
      sortField?: string;
      sortOrder?: 'asc' | 'desc';
    };
    const ctx = contextOf(request);
    const where = whereOf(searchTerms(ctx, table, filters));
    // Read before the headers: a failing query then answers the error envelope as JSON.
    const workbook = await exportWorkbook(ctx, where, { field: sortField, order: sortOrder }, maxCount);
    return sendWorkbook(reply, workbook, ctx.view.frame, ctx.locale, ctx.clock.now());
  });

  const { pageIndex: _pageIndex, pageSize: _pageSize, sortField: _sortField, sortOrder: _sortOrder, ...filterSchemas } = searchSchema.shape;
  // The family's filters narrow the options too (a picker of accounts of type agent: `?type=agent`).
  const optionsSchema = optionsQuerySchema.extend(filterSchemas);
  // Checked before validation, as the guard does: a caller whose pages never pick these rows gets 403 whatever it sent.
  const optionsGuard = async (request: FastifyRequest) => void (await requireOptionsAccess(request, def));
  app.get(path('Options'), { onRequest: optionsGuard, schema: { ...docs('Options', `Ids and names of ${def.label.en} rows in scope, for pickers`, referenceOptionsSchema), querystring: optionsSchema } }, async (request) => {
    // Rows in the caller's scope, to callers holding a page that shows or picks them (options-access.ts).
    const { scope, probes } = await getRequestState(request);
    const title = columnOf(table, def.titleField);
    const { keyword: _keyword, limit: _limit, valueField: _valueField, ...filters } = request.query as Row;
    const conditions: (SQL | SQL[] | undefined)[] = [
      scopeWhere({ def, scope, user: request.user, probes, clock: request.server.clock }, table),
      filterWhere({ def, view: { frame: def.views[0]!.frame }, clock: request.server.clock }, table, filters),
    ];
    if (request.query.keyword) conditions.push(ilike(title, containsPattern(request.query.keyword)));
    if (request.query.schoolId && def.scope.via === 'school') conditions.push(eq(columnOf(table, def.scope.field), request.query.schoolId));
    const { valueField } = request.query;
    if (valueField && !def.fields[valueField]?.unique) throw badRequest([{ path: 'valueField', ...msg('validation.mustBeUnique') }]);
    const rows = await request.server.db
      .select({ value: columnOf(table, valueField ?? 'id'), label: title })
      .from(table)
      .where(allConditions(...conditions))
      .orderBy(asc(title))
      .limit(request.query.limit);
    return ok(rows as ReferenceOption[]);
  });

  registerTreeRoutes(app, def, { guard, contextOf, completeRows });
  registerLinkRoutes(app, def, { guard, contextOf, completeRows });

  for (const toggle of def.toggles ?? []) {
    const field = def.fields[toggle.field]!;
    const body = toggleBodySchema.extend({ value: fieldValueSchema(field) });
    app.post(path(toggleVerb(toggle.field)), { onRequest: guard(def, toggle.button), schema: { ...docs(toggleVerb(toggle.field), `Set ${field.label.en} of rows`, updatedAnswerSchema), querystring: viewQuerySchema, body } }, async (request) => {
      return ok(await setToggle(contextOf(request), toggle.field, request.body.ids, request.body.value));
    });
  }

  registerActionRoutes(parent, def);

  registerWorkflowRoutes(parent, def, { guard, contextOf });
}

