/** Who is calling, through which page, with which buttons and which data scope. */
import { frameOf, type ButtonValue, type ResourceDef, type ViewDef, type VisibilityProbes } from '@campus/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database } from '../../db/client.js';
import type { AuthUser } from '../../platform/auth.js';
import type { Clock } from '../../platform/clock.js';
import { forbidden } from '../../platform/errors.js';
import { getRequestState } from '../../platform/caller-state.js';
import { localeOf } from '../../platform/locale.js';
import type { SchoolScope } from '../../platform/scope.js';

export type Row = Record<string, unknown>;

/**
 * The `server` of a context built outside a request (a seed, a benchmark): only what `provided` holds;
 * reaching for any other app service throws, naming it, instead of quietly answering undefined.
 */
export function appStandIn(who: string, provided: Partial<FastifyInstance> = {}): FastifyInstance {
  return new Proxy(provided as FastifyInstance, {
    get(target, property) {
      if (property in target) return target[property as keyof FastifyInstance];
      throw new Error(`${who}'s engine context has no app (asked for ${String(property)})`);
    },
  });
}
export type Locale = 'zh' | 'en';

export interface EngineContext {
  db: Database;
  user: AuthUser;
  scope: SchoolScope;
  def: ResourceDef;
  view: ViewDef;
  buttons: ReadonlySet<ButtonValue>;
  probes: VisibilityProbes;
  locale: Locale;
  /** The platform's time source: computed fields (a terminal's online state) read the request's time from it. */
  clock: Clock;
  /** Platform services a family's hooks may need (the terminal secret sealer, signed media addresses). */
  server: FastifyInstance;
}


/**
 * Resolves the page (view) a call is made through and checks the caller holds its frame and,
 * when given, the button value; answers 403 otherwise.
 */
export async function resolveContext(
  request: FastifyRequest,
  def: ResourceDef,
  options: { view?: string; button?: ButtonValue },
): Promise<EngineContext> {
  const db = request.server.db;
  const user = request.user;
  // Some families answer only some user types whatever their grant (the login log: company staff).
  if (def.userTypes && !def.userTypes.includes(user.type)) throw forbidden();
  const { grant, scope, probes } = await getRequestState(request);
  const held = def.views.filter((v) => grant.has(frameOf(v.frame).fixedId));
  // Without a named page, the first held page whose grant has the button: a family's buttons may sit on
  // one of its pages only (album production's steps are on albumProduction, not on albumOrder).
  const holdsButton = (v: ViewDef) => options.button !== undefined && (grant.get(frameOf(v.frame).fixedId)?.has(options.button) ?? false);
  const view = options.view ? held.find((v) => v.frame === options.view) : (held.find(holdsButton) ?? held[0]);
  if (!view) throw forbidden();
  const buttons = grant.get(frameOf(view.frame).fixedId) ?? new Set<ButtonValue>();
  if (options.button && !buttons.has(options.button)) throw forbidden();
  return { db, user, scope, def, view, buttons, probes, locale: localeOf(request), clock: request.server.clock, server: request.server };
}

/**
 * Fields the caller may see: money is removed where hideAmountColumns holds (server-side, exports too).
 * Multiple references are among them; they are not columns (see `isLinkField`) and readLinks
 * fills them in.
 */
export function visibleFields(ctx: Pick<EngineContext, 'def' | 'probes'>): [string, ResourceDef['fields'][string]][] {
  return Object.entries(ctx.def.fields).filter(([, f]) => f.kind !== 'password' && !(ctx.probes.hideAmountColumns && f.kind === 'money'));
}
