/**
 * A parent's refund application: written by the Refund family's own Add (the engine's addRow, its
 * module's rules: the school from the payment, nothing left to refund refused), so it appears in
 * refundManage with its badge exactly as the applications made before the app had a channel.
 */
import { PROBE_NAMES, Refund, REFUND_APPLIED, type ButtonValue, type VisibilityProbes } from '@campus/contract';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/client.js';
import { notFound } from '../platform/errors.js';
import type { AuthUser } from '../platform/auth.js';
import type { EngineContext } from '../resources/engine/context.js';
import { NO_CONSOLE_USER_ID } from '../resources/engine/services.js';
import { addRow } from '../resources/engine/write.js';
import type { AppParent } from './sessions.js';

/** The engine's caller for the channel's writes: no console account, the parent's schools as its scope. */
function channelContext(db: Database, server: FastifyInstance, parent: AppParent): EngineContext {
  const user: AuthUser = { id: NO_CONSOLE_USER_ID, loginName: `app:${parent.phoneNum}`, name: parent.name, type: 'external', parentId: null, salesTeamId: null, sellerPosition: null, sessionId: 0 };
  const probes = Object.fromEntries(PROBE_NAMES.map((name) => [name, false])) as VisibilityProbes;
  return { db, user, scope: { kind: 'schools', schoolIds: parent.schoolIds }, def: Refund, view: Refund.views[0]!, buttons: new Set<ButtonValue>(['add']), probes, locale: 'zh', clock: server.clock, server };
}

/** Applies for a refund of one of the parent's payments (another family's payment is 404). */
export async function applyForRefund(db: Database, server: FastifyInstance, parent: AppParent, input: { paymentId: number; reason: string; marketOrderLineId?: number }) {
  if (parent.schoolIds.length === 0) throw notFound();
  const found = (await db.execute(
    sql`select id from payment_records where id = ${input.paymentId} and parent_id = ${parent.id} and school_id in (${sql.join(parent.schoolIds.map((id) => sql`${id}`), sql`, `)})`,
  )) as unknown as { rows: unknown[] };
  if (found.rows.length === 0) throw notFound();
  const { id } = await addRow(channelContext(db, server, parent), { paymentId: input.paymentId, reason: input.reason, marketOrderLineId: input.marketOrderLineId ?? null });
  return { id, state: REFUND_APPLIED };
}
