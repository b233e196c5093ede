/** The engine's context the demo seed writes through, as the demo's operator (admin, whole platform). */
import type { ButtonValue, ResourceDef } from '@campus/contract';
import { eq } from 'drizzle-orm';
import type { AuthUser } from '../platform/auth.js';
import { getVisibilityProbes } from '../platform/probes.js';
import { appStandIn, type EngineContext } from '../resources/engine/context.js';
import type { Database, Transaction } from '../db/client.js';
import { users } from '../db/schema/index.js';

/**
 * The engine's context for the demo's operator (admin, whole platform) on a family's page, at the
 * time `clock` tells. Nothing reached here uses the app (no afterTransitions, no counting), so the
 * server is a stand-in that fails loudly if that changes.
 */
export async function operatorContext(tx: Transaction, adminId: number, clock: { now: () => Date }) {
  const [admin] = await tx.select().from(users).where(eq(users.id, adminId));
  const user: AuthUser = { id: adminId, loginName: admin!.loginName, name: admin!.name, type: admin!.type, parentId: admin!.parentId, salesTeamId: admin!.salesTeamId, sellerPosition: admin!.sellerPosition, sessionId: 0 };
  const db = tx as unknown as Database;
  const probes = await getVisibilityProbes(db, user);
  return (def: ResourceDef): EngineContext => ({ db, user, scope: { kind: 'all' }, def, view: def.views[0]!, buttons: new Set<ButtonValue>(['add', 'update', 'state']), probes, locale: 'zh', clock, server: appStandIn('the demo seed') });
}

