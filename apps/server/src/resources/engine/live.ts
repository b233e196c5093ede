/**
 * After a write to a family commits, the browsers whose figures it moves are told (docs/live.md):
 * `badges` when the family's page carries a badge, `overview` when it is counted by the Overview.
 * Published after the commit, so a browser that refetches at once sees the change.
 */
import { FRAME_BY_INDEX, type ResourceDef } from '@campus/contract';
import { distinctSchools, publishLive } from '../../platform/live-events.js';
import type { EngineContext, Row } from './context.js';

/** Families the Overview counts (schools, students, parents, terminals, payments). */
const OVERVIEW_FAMILIES = new Set(['School', 'Student', 'Parent', 'Terminal', 'PaymentRecord']);

const hasBadge = (def: ResourceDef) => def.views.some((view) => FRAME_BY_INDEX.get(view.frame)?.badge);

/** The school of a row of `def`: its scope field, or the row itself for the School family. */
function schoolOf(def: ResourceDef, row: Row): unknown {
  if (def.name === 'School') return row.id;
  return def.scope.via === 'school' ? row[def.scope.field] : null;
}

/** Announces a committed write of `rows` (as written or as they were) of the context's family. */
export function announceWrite(ctx: Pick<EngineContext, 'def' | 'server'>, rows: readonly Row[]): void {
  const { def } = ctx;
  const badge = hasBadge(def);
  const overview = OVERVIEW_FAMILIES.has(def.name);
  if (!badge && !overview) return;
  // A context built outside an app (appStandIn: seeds, benchmarks; a bare test context) has no messenger and no browser to tell.
  const server = ctx.server as EngineContext['server'] | undefined;
  const messenger = server && 'messenger' in server ? server.messenger : undefined;
  for (const schoolId of distinctSchools(rows.map((row) => schoolOf(def, row)))) {
    if (badge) publishLive(messenger, 'badges', schoolId, { family: def.name });
    if (overview) publishLive(messenger, 'overview', schoolId);
  }
}
