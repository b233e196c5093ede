/**
 * NVRs are online as far as the school's terminals can tell: the console's server usually cannot
 * reach a recorder on a school's network, the gates beside it can. A heartbeat answer lists the
 * school's NVRs to try; the next heartbeat reports which the device reached, and each reached NVR of
 * the device's own school stays online for 3 heartbeat intervals (as a terminal does after a call).
 */
import { OFFLINE_AFTER_MISSED_HEARTBEATS, type HeartbeatBody, type IntakeNvr } from '@campus/contract';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Transaction } from '../db/client.js';
import { nvrs } from '../db/schema/index.js';
import { columnOf } from '../resources/engine/query.js';
import type { VerifiedCall } from './intake-auth.js';

/** The NVRs of the device's school, for the device to try to reach. */
export async function nvrsToCheck(tx: Transaction, schoolId: number): Promise<IntakeNvr[]> {
  const rows = await tx
    .select({ serialNumber: columnOf(nvrs, 'serialNumber'), ip: columnOf(nvrs, 'ip'), port: columnOf(nvrs, 'port') })
    .from(nvrs)
    .where(eq(columnOf(nvrs, 'schoolId'), schoolId))
    .orderBy(asc(columnOf(nvrs, 'id')));
  return rows.map((row) => ({ serialNumber: String(row.serialNumber), ip: String(row.ip), port: Number(row.port) }));
}

/** Marks the NVRs the device reached as seen now; serials of another school's NVRs (or none) change nothing. */
export async function recordNvrReach(tx: Transaction, call: VerifiedCall, reports: HeartbeatBody['nvrs']): Promise<void> {
  const reached = [...new Set((reports ?? []).filter((report) => report.reachable).map((report) => report.serialNumber))];
  if (reached.length === 0) return;
  const offlineAt = new Date(call.now.getTime() + OFFLINE_AFTER_MISSED_HEARTBEATS * call.intervalSeconds * 1000);
  await tx
    .update(nvrs)
    .set({ lastSeenAt: call.now, offlineAt })
    .where(and(eq(columnOf(nvrs, 'schoolId'), call.schoolId), inArray(columnOf(nvrs, 'serialNumber'), reached)));
}
