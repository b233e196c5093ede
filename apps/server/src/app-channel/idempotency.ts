/**
 * Every write of the channel carries an `Idempotency-Key` header. The first call with a key claims it
 * (parent + key, with a hash of the call and its body) and stores its answer; a replay answers that
 * answer and does nothing again; the same key with another call or body is a 409, and so is a replay
 * while the first call still runs. A call that fails releases its key, so the app may retry it. A
 * claim whose call died with its process is taken over after a minute. Keys are kept a week.
 */
import { createHash } from 'node:crypto';
import { idempotencyKeySchema } from '@campus/contract';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { appIdempotencyKeys } from '../db/schema/index.js';
import type { KeyInStatement } from '../mall/orders.js';
import { conflict, msg } from '../platform/errors.js';
import { isConstraintError } from '../platform/pg-errors.js';

const KEY_RETENTION_MS = 7 * 86_400_000;
const ABANDONED_CLAIM_MS = 60_000;

/** The headers schema of a channel write: documents the header and answers 400 without it. */
export const idempotencyHeadersSchema = z.object({ 'idempotency-key': idempotencyKeySchema.describe('Unique per write the app means; a replay answers the first answer') });

function requestHashOf(request: FastifyRequest): string {
  return createHash('sha256')
    .update(`${request.method} ${request.routeOptions.url ?? request.url}\n${JSON.stringify(request.body ?? null)}`)
    .digest('hex');
}

/** Runs `write` once per parent and key (module doc); answers the stored answer on a replay. */
export async function onceByKey<T>(request: FastifyRequest, write: () => Promise<T>): Promise<T> {
  const { db, clock } = request.server;
  const parentId = request.parent.id;
  const key = String(request.headers['idempotency-key']);
  const requestHash = requestHashOf(request);
  const now = clock.now();
  // One statement claims the key and purges the parent's expired keys: a flash sale's thousand
  // attempts each pay one round trip for it, not two. The same key's own expired row is taken over
  // by the conflict clause (a purge in the same statement would not yet be seen by the insert).
  const expiredBefore = new Date(now.getTime() - KEY_RETENTION_MS).toISOString();
  const claimed = (
    (await db.execute(sql`
      with purged as (delete from app_idempotency_keys where parent_id = ${parentId} and created_at < ${expiredBefore}::timestamptz and key <> ${key})
      insert into app_idempotency_keys (parent_id, key, request_hash, created_at) values (${parentId}, ${key}, ${requestHash}, ${now.toISOString()}::timestamptz)
      on conflict (parent_id, key) do update set request_hash = excluded.request_hash, created_at = excluded.created_at, answer = null
        where app_idempotency_keys.created_at < ${expiredBefore}::timestamptz
      returning key`)) as unknown as { rows: unknown[] }
  ).rows;
  if (claimed.length === 0) {
    const [existing] = await db.select().from(appIdempotencyKeys).where(and(eq(appIdempotencyKeys.parentId, parentId), eq(appIdempotencyKeys.key, key)));
    if (existing && existing.requestHash !== requestHash) throw conflict(msg('app.idempotencyKeyReused'));
    if (existing && existing.answer !== null) return (existing.answer as { data: T }).data;
    // Still running, unless its claim is old enough to be a call that died: then this call takes it over.
    const takenOver = existing
      ? await db
          .update(appIdempotencyKeys)
          .set({ createdAt: now })
          .where(and(eq(appIdempotencyKeys.parentId, parentId), eq(appIdempotencyKeys.key, key), sql`${appIdempotencyKeys.answer} is null`, lt(appIdempotencyKeys.createdAt, new Date(now.getTime() - ABANDONED_CLAIM_MS))))
          .returning({ key: appIdempotencyKeys.key })
      : [];
    if (takenOver.length === 0) throw conflict(msg('app.idempotencyKeyInFlight'));
  }
  let answer: T;
  try {
    answer = await write();
  } catch (error) {
    await db.delete(appIdempotencyKeys).where(and(eq(appIdempotencyKeys.parentId, parentId), eq(appIdempotencyKeys.key, key)));
    throw error;
  }
  // Wrapped, so an answer of null is told apart from a claim still running.
  await db
    .update(appIdempotencyKeys)
    .set({ answer: { data: answer } })
    .where(and(eq(appIdempotencyKeys.parentId, parentId), eq(appIdempotencyKeys.key, key)));
  return answer;
}

/** The key's primary key (migration 0046_app-channel): a second claim of a parent's key fails on it. */
const KEY_CLAIMED = 'app_idempotency_keys_parent_id_key_pk';

/**
 * The call's key for a write that claims it inside its own statement with its answer (placing a
 * mall order): no claim, answer and release of their own, two round trips fewer. The claim is a
 * plain insert, so any row of the key — answered, still running or expired — fails the statement,
 * which then wrote nothing, and the call goes the usual way (onceByKey: replay, 409, or take-over).
 * The parent's expired keys are purged by its next usual claim, not here.
 */
export function keyInStatement(request: FastifyRequest): KeyInStatement {
  return {
    key: String(request.headers['idempotency-key']),
    // The call's hash only when the key is claimed: a sold-out attempt never claims it.
    hash: () => requestHashOf(request),
    isHeld: (error) => isConstraintError(error, '23505', KEY_CLAIMED),
  };
}
