/** The routes of a log family: Search (key paged), Get, Export and, with a hide flag, Hide. No writes. */
import {
  exportQuerySchemaOf,
  hiddenAnswerSchema,
  logSearchAnswerSchemaOf,
  logHideSchema,
  logSearchSchemaOf,
  resourcePath,
  rowSchemaOf,
  viewQuerySchema,
  idQuerySchema,
  type ButtonValue,
  type LogSearchAnswer,
  type ResourceDef,
} from '@campus/contract';
import { eq, inArray } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest, msg, notFound } from '../../platform/errors.js';
import { ok } from '../../platform/envelope.js';
import { documentedCall, documentedExport } from '../../platform/route-docs.js';
import type { EngineContext, Row } from './context.js';
import { exportWorkbook } from './export.js';
import { sendWorkbook } from '../../platform/attachments.js';
import { cursorAt, decodeCursor, keyCondition, logAskOf, logDefOf, logOrder, logWhere } from './log.js';
import { COUNT_CAP, allConditions, columnOf, scopeWhere, selectRows, toWire, viewConditions } from './query.js';
import { readPage } from './search-statement.js';
import { tableOf } from './registry.js';
import { recordOperation } from './write.js';

/** What the generic routes lend a log family: the guard that resolves the caller, and row completion. */
export interface RouteKit {
  guard: (def: ResourceDef, button?: ButtonValue) => (request: FastifyRequest) => Promise<void>;
  contextOf: (request: FastifyRequest) => EngineContext;
  completeRows: (request: FastifyRequest, ctx: EngineContext, rows: Row[]) => Promise<Row[]>;
}

/** Registers Search, Get, Export and Hide of a log family; Add, Update, BatchDelete and toggles do not exist. */
export function registerLogRoutes(parent: FastifyInstance, def: ResourceDef, kit: RouteKit): void {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const path = (verb: string) => resourcePath(def.name, verb);
  const table = tableOf(def);
  const log = logDefOf(def);
  const searchSchema = logSearchSchemaOf(def);
  const { guard, contextOf, completeRows } = kit;

  /** Conditions shared by Search and Export: scope, filters within the (default) range, hidden rows. */
  const whereOf = (ctx: EngineContext, filters: Row, now: Date) => logWhere(ctx, table, filters, now);

  /** Search, and its aliases with the values they force (`log.aliases`). */
  const search = (forced: Row) => async (request: FastifyRequest) => {
    const ctx = contextOf(request);
    const { pageIndex, pageSize, cursor: cursorText, ...given } = request.body as z.infer<typeof searchSchema> & Row;
    const filters = { ...given, ...forced };
    const cursor = cursorText ? decodeCursor(cursorText) : undefined;
    // Without a cursor the first pages are read by offset, bounded like every Search (decisions.md).
    const offset = cursor ? 0 : (pageIndex - 1) * pageSize;
    if (offset >= COUNT_CAP) throw badRequest([{ path: 'pageIndex', ...msg('log.tooManyPages', { cap: COUNT_CAP }) }]);
    const { ask, range } = logAskOf(ctx, table, filters, request.server.clock.now(), cursor);
    const direction = cursor?.direction ?? 'next';
    // One row more than the page tells whether another page follows, instead of a count (docs/performance.md).
    const found = await readPage(ctx, ask, pageSize + 1, offset);
    const isFuller = found.length > pageSize;
    const page = found.slice(0, pageSize);
    const rows = direction === 'next' ? page : page.reverse();
    const first = rows[0];
    const last = rows[rows.length - 1];
    const answer: LogSearchAnswer = {
      items: await completeRows(request, ctx, rows),
      hasMore: direction === 'next' ? isFuller : rows.length > 0,
      nextCursor: last && (direction === 'prev' || isFuller) ? cursorAt(def, last, 'next') : null,
      prevCursor: first && (direction === 'prev' ? isFuller : cursor !== undefined || offset > 0) ? cursorAt(def, first, 'prev') : null,
      range: { from: range.from ?? null, to: range.to ?? null },
    };
    return ok(answer);
  };

  const searchRoute = (url: string, verb: string, summary: string, forced: Row) =>
    app.post(url, { onRequest: guard(def), schema: { ...documentedCall(def.name, verb, summary, logSearchAnswerSchemaOf(def)), querystring: viewQuerySchema, body: searchSchema } }, search(forced));
  searchRoute(path('Search'), 'Search', `Search ${def.label.en}: newest first, paged by key`, {});
  for (const alias of log.aliases ?? []) {
    for (const field of Object.keys(alias.fixed ?? {})) {
      if (!def.fields[field]?.filter) throw new Error(`${def.name}: alias ${alias.path} fixes '${field}', which is no filter`);
    }
    searchRoute(alias.path, alias.verb, `${def.label.en} as the named call ${alias.verb} (the family's Search)`, alias.fixed ?? {});
  }

  app.get(path('Get'), { onRequest: guard(def), schema: { ...documentedCall(def.name, 'Get', `One row of ${def.label.en}`, rowSchemaOf(def)), querystring: idQuerySchema } }, async (request) => {
    const ctx = contextOf(request);
    const [row] = await selectRows(ctx, allConditions(eq(columnOf(table, 'id'), request.query.id), scopeWhere(ctx, table), viewConditions(ctx, table)));
    if (!row) throw notFound(msg('error.recordNotFound', { family: def.label, id: request.query.id }));
    const [completed] = await completeRows(request, ctx, [toWire(def, row as Row)]);
    return ok(completed!);
  });

  app.get(path('Export'), { onRequest: guard(def, 'export'), schema: { ...documentedExport(def.name, `Export ${def.label.en} as .xlsx, newest first`), querystring: exportQuerySchemaOf(def) } }, async (request, reply) => {
    const { maxCount, view: _view, sortField: _sortField, sortOrder: _sortOrder, lang: _lang, ...filters } = request.query as Row & { maxCount: number };
    const ctx = contextOf(request);
    const { where } = whereOf(ctx, filters, request.server.clock.now());
    const paging = { order: logOrder(def, table), after: (row: Row) => keyCondition(def, table, { direction: 'next', time: row[log.timeField] as Date, id: Number(row.id) }) };
    // Read before the headers: a failing query then answers the error envelope as JSON.
    const workbook = await exportWorkbook(ctx, where, {}, maxCount, paging);
    return sendWorkbook(reply, workbook, ctx.view.frame, ctx.locale, ctx.clock.now());
  });

  const { hideField } = log;
  if (!hideField) return;
  app.post(path('Hide'), { onRequest: guard(def, 'hide'), schema: { ...documentedCall(def.name, 'Hide', `Hide rows of ${def.label.en}`, hiddenAnswerSchema), querystring: viewQuerySchema, body: logHideSchema } }, async (request) => {
    const ctx = contextOf(request);
    const ids = [...new Set(request.body.ids)];
    const idColumn = columnOf(table, 'id');
    return ok(
      await ctx.db.transaction(async (tx) => {
        // The hide flag is the only change a log row ever sees; rows outside the scope are 404 like elsewhere.
        const hidden = await tx
          .update(table)
          .set({ [hideField]: true })
          .where(allConditions(inArray(idColumn, ids), scopeWhere(ctx, table), viewConditions(ctx, table)))
          .returning({ id: idColumn });
        if (hidden.length !== ids.length) {
          const found = new Set(hidden.map((row) => Number(row.id)));
          throw notFound(msg('error.recordsNotFound', { ids: ids.filter((id) => !found.has(id)) }));
        }
        await recordOperation(tx, ctx, `set:${hideField}`, ids, { [hideField]: [null, true] });
        return { hidden: hidden.length };
      }),
    );
  });
}
