/**
 * The push worker: every few seconds each instance claims due pushes — `FOR UPDATE SKIP LOCKED`,
 * moving their next attempt past a lease, so instances running at once take different rows — hands
 * each to the provider and records the outcome: accepted (`sent`, or `outbox` for the default
 * provider), retried after an exponential back-off, or `givenUp` after PUSH_MAX_ATTEMPTS. The notice in
 * the inbox is another table and is never touched here, whatever the push does.
 */
import { PUSH_BASE_DELAY_MS, PUSH_MAX_ATTEMPTS, PUSH_MAX_DELAY_MS, type PushPlatform } from '@campus/contract';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import type { PushMessage, PushProvider, PushResult } from './provider.js';

export interface PushWorker {
  db: Executor;
  now: () => Date;
  provider: PushProvider;
  batchSize?: number;
  /** How long a claim holds a row before another run may take it again. */
  leaseMs?: number;
}

/** The wait after failed attempt `attempt` (1 = the first): the base doubled each time, capped. */
export function pushDelayMs(attempt: number): number {
  return Math.min(PUSH_MAX_DELAY_MS, PUSH_BASE_DELAY_MS * 2 ** Math.min(attempt - 1, 20));
}

type Claimed = PushMessage & { attempts: number };

async function claimDue(worker: PushWorker, at: Date): Promise<Claimed[]> {
  const lease = new Date(at.getTime() + (worker.leaseMs ?? 120_000));
  const claimed = (await worker.db.execute(sql`
    update push_deliveries set next_attempt_at = ${lease.toISOString()}::timestamptz
    where id in (
      select id from push_deliveries where state = 'pending' and next_attempt_at <= ${at.toISOString()}::timestamptz
      order by next_attempt_at limit ${worker.batchSize ?? 50}
      for update skip locked)
    returning id, notice_id as "noticeId", platform, token, title, content, attempts`)) as unknown as { rows: Record<string, unknown>[] };
  return claimed.rows.map((row) => ({
    deliveryId: Number(row.id),
    noticeId: Number(row.noticeId),
    platform: row.platform as PushPlatform,
    token: String(row.token ?? ''),
    title: String(row.title ?? ''),
    content: String(row.content ?? ''),
    attempts: Number(row.attempts ?? 0),
  }));
}

type Outcome = 'accepted' | 'retrying' | 'givenUp';

/** Records one attempt; only while the row still holds the attempts it was claimed with (another run's result stands). */
async function record(worker: PushWorker, push: Claimed, result: PushResult): Promise<Outcome> {
  const now = worker.now();
  const attempt = push.attempts + 1;
  const outcome: Outcome = result.ok ? 'accepted' : result.permanent || attempt >= PUSH_MAX_ATTEMPTS ? 'givenUp' : 'retrying';
  const state = outcome === 'accepted' ? worker.provider.acceptedState : outcome === 'givenUp' ? 'givenUp' : 'pending';
  const next = outcome === 'retrying' ? new Date(now.getTime() + pushDelayMs(attempt)) : null;
  await worker.db.execute(sql`
    update push_deliveries set state = ${state}, attempts = ${attempt}, provider = ${worker.provider.name},
      next_attempt_at = ${next?.toISOString() ?? null}::timestamptz, last_error = ${result.ok ? null : result.error.slice(0, 500)},
      delivered_at = ${outcome === 'accepted' ? now.toISOString() : null}::timestamptz
    where id = ${push.deliveryId} and state = 'pending' and attempts = ${push.attempts}`);
  return outcome;
}

/** One run: claims the due pushes, sends them side by side, records each; answers the outcomes. */
export async function deliverDuePushes(worker: PushWorker): Promise<Outcome[]> {
  const claimed = await claimDue(worker, worker.now());
  return Promise.all(
    claimed.map(async (push) => {
      const result = await worker.provider.send(push).catch((error: unknown): PushResult => ({ ok: false, error: error instanceof Error ? error.message : String(error) }));
      return record(worker, push, result);
    }),
  );
}
