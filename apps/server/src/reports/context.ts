/** Who calls a report, through which page, with which buttons, scope and visible measures. */
import { frameOf, type ButtonValue, type ReportDef, type ReportMeasureDef, type VisibilityProbes } from '@campus/contract';
import type { FastifyRequest } from 'fastify';
import type { Database } from '../db/client.js';
import type { AuthUser } from '../platform/auth.js';
import { getRequestState } from '../platform/caller-state.js';
import { forbidden } from '../platform/errors.js';
import type { SchoolScope } from '../platform/scope.js';
import { localeOf } from '../platform/locale.js';
import type { Locale } from '../resources/engine/context.js';
import type { ReportModule, ReportSource } from './source.js';

export interface ReportContext {
  db: Database;
  user: AuthUser;
  scope: SchoolScope;
  def: ReportDef;
  source: ReportSource;
  /** The page the call is made through (the report's frame held by the caller). */
  view: { frame: string };
  probes: VisibilityProbes;
  locale: Locale;
  /** The declared measures the caller may see: money is left out where hideAmountColumns holds. */
  measures: [string, ReportMeasureDef][];
  /** The planner cost above which Search estimates its number of groups instead of counting (SEARCH_COUNT_COST_LIMIT). */
  countCostLimit: number;
}

/** Checks the caller holds one of the report's frames (and the button, when given); 403 otherwise. */
export async function resolveReportContext(request: FastifyRequest, { def, source }: ReportModule, options: { view?: string; button?: ButtonValue }): Promise<ReportContext> {
  const { grant, scope, probes } = await getRequestState(request);
  const held = def.views.filter((v) => grant.has(frameOf(v.frame).fixedId));
  const view = options.view ? held.find((v) => v.frame === options.view) : held[0];
  if (!view) throw forbidden();
  if (options.button && !grant.get(frameOf(view.frame).fixedId)?.has(options.button)) throw forbidden();
  const measures = Object.entries(def.measures).filter(([, m]) => !(probes.hideAmountColumns && m.kind === 'money'));
  return { db: request.server.db, user: request.user, scope, def, source, view, probes, locale: localeOf(request), measures, countCostLimit: request.server.env.SEARCH_COUNT_COST_LIMIT };
}
