/**
 * What the intake tells the browsers (docs/live.md), after its transaction committed and off its
 * statements: one `recognitions` event per events call (never one per record), and a terminal's
 * `terminals` event when it comes online or goes offline. Nothing here reads the database on the
 * intake's path; the offline sweep is a recurring job of its own.
 */
import { OFFLINE_AFTER_MISSED_HEARTBEATS } from '@campus/contract';
import { and, gt, lte } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { terminals } from '../db/schema/index.js';
import { publishLive } from '../platform/live-events.js';
import type { RecurringJob } from '../platform/recurring-jobs.js';
import { columnOf } from '../resources/engine/query.js';
import { recordOfflinePeriods } from './offline-periods.js';

/** A batch of stored recognition events of one school. */
export function announceRecognitions(server: FastifyInstance, schoolId: number, accepted: number): void {
  if (accepted <= 0) return;
  publishLive(server.messenger, 'recognitions', schoolId, { count: accepted });
  publishLive(server.messenger, 'overview', schoolId);
}

/** Terminals this instance last heard from, with the time each goes offline (bounded: cleared past this many). */
const MAX_REMEMBERED_TERMINALS = 200_000;
const offlineTimes = new WeakMap<FastifyInstance, Map<number, number>>();

/**
 * A signed call from a terminal: announced as "online" when this instance did not know it online.
 * Another instance may announce the same arrival once more: events are hints, a browser refetches.
 */
export function announceTerminalCall(server: FastifyInstance, call: { terminalId: number; schoolId: number; now: Date; intervalSeconds: number }): void {
  let known = offlineTimes.get(server);
  if (!known) offlineTimes.set(server, (known = new Map()));
  const now = call.now.getTime();
  const wasOnline = (known.get(call.terminalId) ?? 0) > now;
  if (known.size >= MAX_REMEMBERED_TERMINALS) known.clear();
  known.set(call.terminalId, now + OFFLINE_AFTER_MISSED_HEARTBEATS * call.intervalSeconds * 1000);
  if (wasOnline) return;
  publishLive(server.messenger, 'terminals', call.schoolId, { terminalId: call.terminalId, online: true });
  publishLive(server.messenger, 'overview', call.schoolId);
}

/** How often an instance looks for terminals that went offline since it last looked. */
export const OFFLINE_SWEEP_MS = 10_000;
const sweptUntil = new WeakMap<FastifyInstance, number>();

/**
 * Terminals whose offline time passed since the last sweep: nothing writes when a terminal falls
 * silent (online-state.ts), so this looks, through the (school, offline_at) index, for the ones that just did,
 * and keeps their offline periods (offline-periods.ts).
 */
export const terminalOfflineSweepJob: RecurringJob = {
  name: 'terminal-offline-sweep',
  everyMs: OFFLINE_SWEEP_MS,
  async run(app) {
    const now = app.clock.now();
    const from = new Date(sweptUntil.get(app) ?? now.getTime() - OFFLINE_SWEEP_MS);
    sweptUntil.set(app, now.getTime());
    const offlineAt = columnOf(terminals, 'offlineAt');
    const gone = await app.db
      .select({ id: columnOf(terminals, 'id'), schoolId: columnOf(terminals, 'schoolId') })
      .from(terminals)
      .where(and(gt(offlineAt, from), lte(offlineAt, now)));
    for (const terminal of gone) {
      publishLive(app.messenger, 'terminals', terminal.schoolId === null ? null : Number(terminal.schoolId), { terminalId: Number(terminal.id), online: false });
    }
    for (const schoolId of new Set(gone.map((terminal) => terminal.schoolId))) publishLive(app.messenger, 'overview', schoolId === null ? null : Number(schoolId));
    const periods = await recordOfflinePeriods(app.db, now);
    return { offline: gone.length, ...periods };
  },
};
