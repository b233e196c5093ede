/**
 * A family's server module: everything the server adds to its declaration, in one object — its
 * hooks and actions (what the engine calls), its hand-written routes, its badges and its jobs. The
 * modules are listed once (resources/families.ts); nothing registers itself by being imported, and
 * the server refuses to start when the list and the declarations disagree (checkFamilyModules).
 */
import type { ResourceDef, SettingDef } from '@campus/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { Badge } from '../../platform/badges.js';
import type { DailyJob } from '../../platform/daily-jobs.js';
import type { RecurringJob } from '../../platform/recurring-jobs.js';
import { installHooks, type FamilyHooks } from './hooks.js';
import type { SettingBinding } from './settings.js';
import { withUntilFields } from './until-fields.js';
import { pendingRowsBadge, withPendingFilter, type PendingRows } from './pending-rows.js';

/**
 * What modules hand to the seams of layers above the engine (the terminal intake, the payment
 * providers' notifications): seam groups of named handlers. The layer owning a group adds it here by
 * declaration merging (`declare module`), so the engine imports none of them and each is typed.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging in terminals/ and finance/
export interface FamilySeams {}

export interface FamilyModule<D extends ResourceDef = ResourceDef> extends FamilyHooks<D> {
  family: D;
  /** Routes the engine does not derive from the declaration (a settings card's calls, a members list). */
  routes?: readonly FastifyPluginAsync[];
  /** Platform settings shown as cards above the family's page, with where each is stored. */
  settings?: readonly SettingBinding[];
  /** Rows waiting for someone: a menu badge counts them and, with `filter`, that computed filter lists them. */
  pending?: PendingRows;
  /** Other menu badges (counting something else than the family's own rows). */
  badges?: readonly Badge[];
  /** Work run once a day across all instances (an expiry, a purge). */
  dailyJobs?: readonly DailyJob[];
  /** Work run every few seconds or minutes across all instances (a provider query). */
  recurringJobs?: readonly RecurringJob[];
  /** Handlers of seams above the engine (`intake: { commands }`, `notifications: { refund }`); each handler is given by one module. */
  seams?: { [G in keyof FamilySeams]?: Partial<FamilySeams[G]> };
}

/** The seam handlers the modules give, by group; refuses (FamilyModuleError) a handler two modules give. */
export function seamsOf(modules: readonly FamilyModule[]): { [G in keyof FamilySeams]?: Partial<FamilySeams[G]> } {
  const given: Record<string, Record<string, unknown>> = {};
  const givenBy = new Map<string, string>();
  for (const module of modules) {
    for (const [group, handlers] of Object.entries(module.seams ?? {})) {
      for (const [name, handler] of Object.entries(handlers ?? {})) {
        const seam = `${group}.${name}`;
        if (givenBy.has(seam)) throw new FamilyModuleError(`seam ${seam} is handled twice (${givenBy.get(seam)} and ${module.family.name})`);
        givenBy.set(seam, module.family.name);
        (given[group] ??= {})[name] = handler;
      }
    }
  }
  return given;
}

/**
 * A family's module, typed by its declaration; the actions and transitions it handles are checked
 * against it. Answered untyped, so the one list holds every family's module.
 */
export function defineFamilyModule<D extends ResourceDef>(family: D, module: Omit<FamilyModule<D>, 'family'>): FamilyModule {
  for (const action of family.actions ?? []) {
    if (!module.actions?.[action.verb]) throw new FamilyModuleError(`${family.name}: action '${action.verb}' is declared but has no handler`);
    for (const field of Object.keys(action.offeredWhen ?? {})) {
      if (!family.fields[field]) throw new FamilyModuleError(`${family.name}: action '${action.verb}' is offered by '${field}', which is not a field`);
    }
  }
  for (const verb of Object.keys(module.actions ?? {})) {
    if (!family.actions?.some((action) => action.verb === verb)) throw new FamilyModuleError(`${family.name}: handler for undeclared action '${verb}'`);
  }
  for (const verb of [...Object.keys(module.transitions ?? {}), ...Object.keys(module.afterTransitions ?? {})]) {
    if (!family.workflow?.transitions.some((transition) => transition.verb === verb)) throw new FamilyModuleError(`${family.name}: hook for undeclared transition '${verb}'`);
  }
  // The engine calls a family's hooks only with rows of that family, which is what FamilyModule<D> promises.
  return { family, ...module } as unknown as FamilyModule;
}

/**
 * Rules several families share (the account families'), around a family's own hooks: the shared
 * rules see writes and deletes first and afterWrite last, so a family's own adjustments start from
 * the shared ones and its side effects happen before the shared ones. They read only fields every
 * such family declares, so they take plain rows.
 */
export function withSharedRules<D extends ResourceDef>(shared: Pick<FamilyHooks, 'beforeWrite' | 'afterWrite' | 'beforeDelete'>, own: Omit<FamilyModule<D>, 'family'>): Omit<FamilyModule<D>, 'family'> {
  // The engine hands both the same rows; only their declared types differ (plain for the shared rules).
  const plain = own as unknown as Omit<FamilyModule, 'family'>;
  const composed: Omit<FamilyModule, 'family'> = {
    ...plain,
    async beforeWrite(ctx, input) {
      const values = shared.beforeWrite ? await shared.beforeWrite(ctx, input) : input.values;
      return plain.beforeWrite ? plain.beforeWrite(ctx, { ...input, values }) : values;
    },
    async afterWrite(ctx, change) {
      await plain.afterWrite?.(ctx, change);
      await shared.afterWrite?.(ctx, change);
    },
    async beforeDelete(ctx, rows) {
      await shared.beforeDelete?.(ctx, rows);
      await plain.beforeDelete?.(ctx, rows);
    },
  };
  return composed as unknown as Omit<FamilyModule<D>, 'family'>;
}

/** A declaration and the server's module list disagree: the server does not start (main.ts prints the one line). */
export class FamilyModuleError extends Error {
  override name = 'FamilyModuleError';
}

/**
 * Refuses (FamilyModuleError, naming the first problem) a family declared twice, a module whose
 * family is not declared, two modules for one family, or a declared family without a table in the
 * database (`missingTables`: the tables of `declared` the database lacks, by family name).
 */
export function checkFamilyModules(declared: readonly ResourceDef[], modules: readonly FamilyModule[], missingTables: ReadonlyMap<string, string> = new Map()): void {
  const seen = new Map<string, ResourceDef>();
  for (const def of declared) {
    if (seen.has(def.name)) throw new FamilyModuleError(`family ${def.name} is listed twice in the declarations (packages/contract/src/resources/index.ts)`);
    seen.set(def.name, def);
  }
  const handled = new Set<string>();
  for (const module of modules) {
    const name = module.family.name;
    if (seen.get(name) !== module.family) throw new FamilyModuleError(`the server module of ${name} names a family that is not declared: add it to RESOURCES`);
    if (handled.has(name)) throw new FamilyModuleError(`family ${name} is listed twice in the server's modules (resources/families.ts)`);
    handled.add(name);
  }
  for (const def of declared) {
    const table = missingTables.get(def.name);
    if (table) throw new FamilyModuleError(`family ${def.name} has no table ${table}: generate its migration (npm run db:generate -w apps/server)`);
  }
}

/** Refuses (FamilyModuleError) a declared setting no module stores, one stored twice, or one stored by another family's module. */
export function checkSettings(declared: readonly SettingDef[], modules: readonly FamilyModule[]): void {
  const stored = new Map<SettingDef, string>();
  for (const module of modules) {
    for (const { def } of module.settings ?? []) {
      if (stored.has(def)) throw new FamilyModuleError(`setting ${def.name} is stored twice (${stored.get(def)} and ${module.family.name})`);
      if (def.family !== module.family.name) throw new FamilyModuleError(`setting ${def.name} belongs to ${def.family}, not to ${module.family.name}`);
      if (!declared.includes(def)) throw new FamilyModuleError(`setting ${def.name} is not declared: add it to SETTINGS`);
      stored.set(def, module.family.name);
    }
  }
  const missing = declared.find((def) => !stored.has(def));
  if (missing) throw new FamilyModuleError(`setting ${missing.name} has no store: add it to the settings of ${missing.family}'s module`);
}

/** Checks the modules against the declarations, then hands the engine their hooks. */
export function installFamilyModules(
  declared: readonly ResourceDef[],
  modules: readonly FamilyModule[],
  settings: readonly SettingDef[] = [],
  missingTables?: ReadonlyMap<string, string>,
): void {
  checkFamilyModules(declared, modules, missingTables);
  checkSettings(settings, modules);
  // Every declared family gets the hooks its declaration implies (an `until` field), module or none.
  const moduleOf = new Map(modules.map((module) => [module.family.name, module]));
  installHooks(declared.map((def) => moduleOf.get(def.name) ?? { family: def }).map((module) => [module.family.name, withPendingFilter(module.pending, withUntilFields(module.family, module))]));
}

/** Every menu badge the modules give: their pending rows' and their own. */
export function badgesOf(modules: readonly FamilyModule[]): Badge[] {
  return modules.flatMap((module) => [...(module.pending ? [pendingRowsBadge(module.family, module.pending)] : []), ...(module.badges ?? [])]);
}
