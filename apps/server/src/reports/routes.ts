/**
 * The calls of one report: `POST /api/{Report}/Search` (paged groups + totals), `GET
 * /api/{Report}/GetSummary` (every group of the requested dimensions, for charts and the seed's
 * statistics GETs) and `GET /api/{Report}/Export` (.xlsx of the groups asked, with a totals row).
 */
import {
  reportExportQuerySchemaOf,
  reportSearchAnswerSchemaOf,
  reportSummaryAnswerSchemaOf,
  reportSearchSchemaOf,
  reportSummaryQuerySchemaOf,
  reportsOfFrame,
  resourcePath,
  type ButtonValue,
  type ReportDef,
  type ReportGrain,
  type ReportRow,
} from '@campus/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '../platform/envelope.js';
import { documentedCall, documentedExport } from '../platform/route-docs.js';
import { sendWorkbook } from '../platform/attachments.js';
import { resolveReportContext, type ReportContext } from './context.js';
import { reportWorkbook } from './export.js';
import { searchReport, summarizeReport, type ReportInput } from './query.js';
import type { ReportModule } from './source.js';

const contexts = new WeakMap<FastifyRequest, ReportContext>();

/** Checks frame and button before the input is validated, so a caller without them gets 403 whatever it sent. */
function guard(report: ReportModule, button?: ButtonValue) {
  return async (request: FastifyRequest) => {
    const view = (request.query as { view?: unknown }).view;
    contexts.set(request, await resolveReportContext(request, report, { view: typeof view === 'string' ? view : undefined, button }));
  };
}

function contextOf(request: FastifyRequest): ReportContext {
  const ctx = contexts.get(request);
  if (!ctx) throw new Error('report route without guard');
  return ctx;
}

/** Splits parsed input into filters and the engine's own keys. */
function inputOf(parsed: Record<string, unknown>): ReportInput {
  const { pageIndex: _p, pageSize: _s, view: _v, lang: _l, groupBy: _g, grain, sortField, sortOrder, ...filters } = parsed;
  return { filters, grain: grain as ReportGrain | undefined, sortField: sortField as string | undefined, sortOrder: sortOrder as 'asc' | 'desc' | undefined };
}

/** Image attributes (a group's last snapshot) as addresses the caller's browser may open for a while. */
async function signImages(request: FastifyRequest, def: ReportDef, items: ReportRow[]): Promise<ReportRow[]> {
  const images = Object.entries(def.attributes ?? {}).filter(([, attribute]) => attribute.kind === 'image').map(([name]) => name);
  if (images.length === 0) return items;
  const signer = await request.server.mediaUrls();
  return items.map((row) => {
    const signed = { ...row };
    for (const name of images) if (typeof signed[name] === 'string') signed[name] = signer.sign(signed[name]);
    return signed;
  });
}

/** Registers Search, GetSummary and Export of one report. */
export function registerReportRoutes(parent: FastifyInstance, report: ReportModule): void {
  const { def } = report;
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const path = (verb: string) => resourcePath(def.name, verb);
  const grainOf = (input: ReportInput) => input.grain ?? def.period?.defaultGrain ?? 'month';
  // A page showing several reports (DataCenter) downloads several workbooks: each is named after its report too.
  const sharesPage = def.views.some((view) => reportsOfFrame(view.frame).length > 1);

  app.post(path('Search'), { onRequest: guard(report), schema: { ...documentedCall(def.name, 'Search', `${def.label.en}: one page of groups and the totals`, reportSearchAnswerSchemaOf(def)), body: reportSearchSchemaOf(def) } }, async (request) => {
    const body = request.body as Record<string, unknown> & { pageIndex: number; pageSize: number };
    const answer = await searchReport(contextOf(request), inputOf(body), body, request.server.clock.now());
    return ok({ ...answer, items: await signImages(request, def, answer.items) });
  });

  app.get(path('GetSummary'), { onRequest: guard(report), schema: { ...documentedCall(def.name, 'GetSummary', `${def.label.en}: every group of the asked dimensions and the totals`, reportSummaryAnswerSchemaOf(def)), querystring: reportSummaryQuerySchemaOf(def) } }, async (request) => {
    const query = request.query as Record<string, unknown> & { groupBy?: string[] };
    const groupBy = query.groupBy ?? Object.keys(def.dimensions);
    return ok(await summarizeReport(contextOf(request), inputOf(query), groupBy, request.server.clock.now()));
  });

  app.get(path('Export'), { onRequest: guard(report, 'export'), schema: { ...documentedExport(def.name, `Export ${def.label.en} as .xlsx with a totals row`), querystring: reportExportQuerySchemaOf(def) } }, async (request, reply) => {
    const ctx = contextOf(request);
    const query = request.query as Record<string, unknown> & { groupBy?: string[] };
    const input = inputOf(query);
    const groupBy = Object.keys(def.dimensions).filter((dimension) => !query.groupBy || query.groupBy.includes(dimension));
    // Read (and refused, if too wide) before the first byte is sent: a failure is still an envelope.
    const answer = await summarizeReport(ctx, input, groupBy, request.server.clock.now());
    const part = sharesPage ? { name: def.name, title: def.label } : undefined;
    return sendWorkbook(reply, reportWorkbook(ctx, def, answer, grainOf(input), groupBy), ctx.view.frame, ctx.locale, request.server.clock.now(), part);
  });
}
