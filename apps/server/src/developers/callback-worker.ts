/**
 * The callback worker: every few seconds each instance claims due deliveries — `FOR UPDATE SKIP
 * LOCKED`, moving their next attempt past a lease, so instances running at once take different rows
 * and a row is sent by one of them at a time — POSTs each (callback-http.ts) and records the attempt
 * in the delivery log (DeveloperDelivery) with the delivery's new state, in one transaction:
 * delivered (the row is deleted), retrying after an exponential backoff with jitter, or dead after
 * CALLBACK_MAX_ATTEMPTS. A process dying mid-send leaves the row claimed until its lease ends; the next
 * run then sends it again under the same idempotency key, which the receiver uses to drop the repeat.
 */
import {
  CALLBACK_BASE_DELAY_MS,
  CALLBACK_MAX_ATTEMPTS,
  CALLBACK_MAX_DELAY_MS,
  CALLBACK_TIMEOUT_MS,
  DeveloperDelivery,
  type CallbackOutcome,
  type DeveloperCallbackBody,
  type OpenRecognitionEvent,
} from '@campus/contract';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { Database } from '../db/client.js';
import { developerDeliveries } from '../db/schema/developer-callbacks.js';
import { developerDeliveryAttempts, developers } from '../db/schema/resources.js';
import type { MediaUrlSigner } from '../platform/media-urls.js';
import type { DailyJob } from '../platform/daily-jobs.js';
import type { RecurringJob } from '../platform/recurring-jobs.js';
import { openSealedSecret } from '../platform/sealed-secrets.js';
import { callbackPolicyOf, isCallbackUrlAllowed, type CallbackPolicy } from './callback-address.js';
import { isDelivered, postCallback, signedCallbackHeaders, type CallbackResult } from './callback-http.js';

export interface CallbackWorker {
  db: Database;
  now: () => Date;
  signer: MediaUrlSigner;
  policy: CallbackPolicy;
  log: Pick<FastifyBaseLogger, 'error'>;
  /** The jitter's source (tests fix it). */
  random?: () => number;
  timeoutMs?: number;
  /** Deliveries one run claims; they are sent at once, so a run lasts about one timeout at most. */
  batchSize?: number;
}

const DEFAULT_BATCH = 10;

/**
 * The wait after failed attempt number `attempt` (1 = the first): the base doubled per attempt, capped,
 * then a random point in its upper half ("equal jitter"), so receivers coming back up are not hit by
 * every delivery at the same instant, and no wait is shorter than half the schedule's.
 */
export function callbackDelayMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(CALLBACK_MAX_DELAY_MS, CALLBACK_BASE_DELAY_MS * 2 ** Math.min(attempt - 1, 30));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

interface ClaimedDelivery {
  id: number;
  deliveryId: string;
  developerId: number;
  schoolId: number;
  events: OpenRecognitionEvent[];
  eventCount: number;
  attempts: number;
}

/** Claims up to `limit` due deliveries under a new lease; answers them and the lease. */
async function claimDue(db: Database, at: Date, leaseMs: number, limit: number): Promise<{ leaseId: string; claimed: ClaimedDelivery[] }> {
  const leaseId = randomUUID();
  const result = (await db.execute(sql`
    update developer_deliveries set next_attempt_at = ${new Date(at.getTime() + leaseMs).toISOString()}::timestamptz, lease_id = ${leaseId}
    where id in (
      select id from developer_deliveries
      where state = 'pending' and next_attempt_at <= ${at.toISOString()}::timestamptz
      order by next_attempt_at
      limit ${limit}
      for update skip locked)
    returning id, delivery_id as "deliveryId", developer_id as "developerId", school_id as "schoolId", events, event_count as "eventCount", attempts`)) as unknown as {
    rows: ClaimedDelivery[];
  };
  return { leaseId, claimed: result.rows.map((row) => ({ ...row, id: Number(row.id), developerId: Number(row.developerId), schoolId: Number(row.schoolId), attempts: Number(row.attempts) })) };
}

type Receiver = { callbackUrl: string; appId: string; secret: string } | { callbackUrl: string | null; refusal: string };

/** The developer as it is now (a secret rotated or a URL changed since the enqueue applies at once). */
async function receiverOf(worker: CallbackWorker, developerId: number): Promise<Receiver> {
  const [developer] = await worker.db
    .select({ appId: developers.appId, enabled: developers.enabled, callbackUrl: developers.callbackUrl, secretSealed: developers.secretSealed })
    .from(developers)
    .where(eq(developers.id, developerId));
  if (!developer?.enabled || !developer.callbackUrl || !developer.secretSealed) return { callbackUrl: (developer?.callbackUrl as string | null) ?? null, refusal: 'the developer is disabled, or has no callback URL or secret' };
  const secret = await openSealedSecret(worker.db, String(developer.secretSealed));
  if (secret === undefined) return { callbackUrl: String(developer.callbackUrl), refusal: 'the developer has no secret' };
  if (!isCallbackUrlAllowed(worker.policy, String(developer.callbackUrl))) return { callbackUrl: String(developer.callbackUrl), refusal: 'the callback URL is not allowed' };
  return { callbackUrl: String(developer.callbackUrl), appId: String(developer.appId), secret };
}

/** Sends one claimed delivery (or fails it without a call when its developer cannot receive it). */
async function send(worker: CallbackWorker, delivery: ClaimedDelivery): Promise<{ result: CallbackResult; callbackUrl: string | null }> {
  const receiver = await receiverOf(worker, delivery.developerId);
  if (!('secret' in receiver)) return { result: { error: receiver.refusal, durationMs: 0 }, callbackUrl: receiver.callbackUrl };
  // Snapshots as the Open API answers them: signed addresses, signed now (a signature made at enqueue could have expired).
  const events = delivery.events.map((event) => ({ ...event, snapshot: event.snapshot ? worker.signer.sign(event.snapshot) : null }));
  const body = JSON.stringify({ deliveryId: delivery.deliveryId, schoolId: delivery.schoolId, events } satisfies DeveloperCallbackBody);
  const url = new URL(receiver.callbackUrl);
  const headers = signedCallbackHeaders({ appId: receiver.appId, secret: receiver.secret }, url, body, delivery.deliveryId, worker.now());
  const result = await postCallback(url, body, headers, { timeoutMs: worker.timeoutMs ?? CALLBACK_TIMEOUT_MS, policy: worker.policy });
  return { result, callbackUrl: receiver.callbackUrl };
}

/** Records an attempt and the delivery's next state, under the run's lease (a row another run took since is left alone). */
async function record(worker: CallbackWorker, delivery: ClaimedDelivery, leaseId: string, sent: { result: CallbackResult; callbackUrl: string | null }): Promise<CallbackOutcome> {
  const now = worker.now();
  const attempt = delivery.attempts + 1;
  const outcome: CallbackOutcome = isDelivered(sent.result) ? 'delivered' : attempt >= CALLBACK_MAX_ATTEMPTS ? 'dead' : 'retrying';
  const nextAttemptAt = outcome === 'retrying' ? new Date(now.getTime() + callbackDelayMs(attempt, worker.random)) : null;
  await worker.db.transaction(async (tx) => {
    const underLease = and(eq(developerDeliveries.id, delivery.id), eq(developerDeliveries.leaseId, leaseId));
    if (outcome === 'delivered') await tx.delete(developerDeliveries).where(underLease);
    else await tx.update(developerDeliveries).set({ attempts: attempt, state: outcome === 'dead' ? 'dead' : 'pending', nextAttemptAt: nextAttemptAt ?? now, leaseId: null }).where(underLease);
    await tx.insert(developerDeliveryAttempts).values({
      attemptedAt: now,
      developerId: delivery.developerId,
      deliveryId: delivery.deliveryId,
      attempt,
      eventCount: delivery.eventCount,
      outcome,
      httpStatus: sent.result.status ?? null,
      durationMs: sent.result.durationMs,
      error: sent.result.error?.slice(0, 500) ?? null,
      nextAttemptAt,
      callbackUrl: sent.callbackUrl?.slice(0, 500) ?? null,
    });
  });
  return outcome;
}

/** One run: claims the due deliveries, sends them side by side and records each; answers their outcomes. */
export async function deliverDueCallbacks(worker: CallbackWorker): Promise<CallbackOutcome[]> {
  const timeoutMs = worker.timeoutMs ?? CALLBACK_TIMEOUT_MS;
  // The lease outlasts a run's sends (all at once, each within the timeout) with room for the database.
  const { leaseId, claimed } = await claimDue(worker.db, worker.now(), Math.max(5 * 60_000, 3 * timeoutMs), worker.batchSize ?? DEFAULT_BATCH);
  const outcomes = await Promise.all(
    claimed.map(async (delivery) => {
      try {
        return await record(worker, delivery, leaseId, await send(worker, delivery));
      } catch (error) {
        // A developer deleted mid-send takes its delivery and log with it; anything else is retried after the lease.
        worker.log.error({ err: error, deliveryId: delivery.deliveryId }, 'developer callback failed');
        return undefined;
      }
    }),
  );
  return outcomes.filter((outcome): outcome is CallbackOutcome => outcome !== undefined);
}

/** Looks for due callbacks every 5 seconds on each instance: events reach developers within seconds. */
export const developerCallbackJob: RecurringJob = {
  name: 'developer-callbacks',
  everyMs: 5_000,
  run: async (app: FastifyInstance) =>
    deliverDueCallbacks({ db: app.db, now: () => app.clock.now(), signer: await app.mediaUrls(), policy: callbackPolicyOf(app.env), log: app.log }),
};

/**
 * Dead deliveries nobody retried are dropped once their attempts have left the delivery log (its
 * retention): the log's Retry could no longer reach them, and their events stay readable through the
 * Open API. Pending rows are never dropped.
 */
export const deadCallbackPurgeJob: DailyJob = {
  name: 'developer-callback-purge',
  run: (db: Database, now: Date) =>
    db
      .delete(developerDeliveries)
      .where(and(eq(developerDeliveries.state, 'dead'), lt(developerDeliveries.createdAt, new Date(now.getTime() - DeveloperDelivery.log.retentionDays * 86_400_000)))),
};
