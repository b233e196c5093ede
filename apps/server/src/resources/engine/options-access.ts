/**
 * Who may read `GET /api/{Family}/Options`. A picker is part of a page: the family's own pages, and
 * every page whose form, lines, transitions, actions or filters reference the family (a student form
 * picks a school, a device report filters by model). Options answer only callers holding one of those
 * frames, so labels (licence codes, serial numbers, delivery numbers) reach no one whose pages never
 * show them. Derived from the declarations, so a new reference opens its picker with no other code.
 */
import { REPORTS, RESOURCES, frameOf, type FieldDef, type ResourceDef, type ViewDef } from '@campus/contract';
import type { FastifyRequest } from 'fastify';
import { getRequestState, type CallerState } from '../../platform/caller-state.js';
import { forbidden } from '../../platform/errors.js';

/** The families a set of fields references, lines' fields included. */
function referencedFamilies(fields: Record<string, FieldDef> | undefined): string[] {
  return Object.values(fields ?? {}).flatMap((field) =>
    field.kind === 'reference' ? [field.family] : field.kind === 'lines' ? referencedFamilies(field.fields) : [],
  );
}

/** Every field set a family's pages ask for: its own fields, and those of its transitions and actions. */
function fieldSetsOf(def: ResourceDef): (Record<string, FieldDef> | undefined)[] {
  return [def.fields, ...(def.workflow?.transitions ?? []).map((t) => t.fields), ...(def.actions ?? []).map((a) => a.fields)];
}

let framesByFamily: Map<string, Set<number>> | undefined;

/** Family name → fixed ids of the frames whose pages show or pick its rows. */
function pickerFrames(): Map<string, Set<number>> {
  if (framesByFamily) return framesByFamily;
  const frames = new Map<string, Set<number>>();
  const add = (family: string, views: readonly ViewDef[]) => {
    const set = frames.get(family) ?? new Set<number>();
    for (const view of views) set.add(frameOf(view.frame).fixedId);
    frames.set(family, set);
  };
  for (const def of Object.values(RESOURCES)) {
    add(def.name, def.views);
    for (const family of fieldSetsOf(def).flatMap(referencedFamilies)) add(family, def.views);
  }
  for (const report of Object.values(REPORTS)) {
    for (const family of referencedFamilies(report.filters)) add(family, report.views);
  }
  framesByFamily = frames;
  return frames;
}

/**
 * The caller's state when it may read the family's options; 403 otherwise, like any page it lacks
 * (a family some user types never see, e.g. the login log, stays closed to the others).
 */
export async function requireOptionsAccess(request: FastifyRequest, def: ResourceDef): Promise<CallerState> {
  if (def.userTypes && !def.userTypes.includes(request.user.type)) throw forbidden();
  const state = await getRequestState(request);
  const frames = pickerFrames().get(def.name) ?? new Set<number>();
  if (![...frames].some((frameId) => state.grant.has(frameId))) throw forbidden();
  return state;
}
