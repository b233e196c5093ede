/**
 * Enqueues developer callbacks in the intake's transaction (the outbox): one delivery per developer
 * that may read the batch's school, is enabled, has a callback URL and a secret to sign with. The rows
 * commit with the events or not at all, so a process dying after the commit loses nothing: the worker
 * (callback-worker.ts) finds them in the table.
 */
import type { OpenRecognitionEvent } from '@campus/contract';
import { and, eq, isNotNull, ne } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import type { Transaction } from '../db/client.js';
import { developerDeliveries } from '../db/schema/developer-callbacks.js';
import { developerSchools } from '../db/schema/open-api.js';
import { developers } from '../db/schema/resources.js';

/** A delivery's idempotency key: 128 random bits behind a prefix saying what it is. */
const newDeliveryId = () => `dlv_${randomBytes(16).toString('hex')}`;

/**
 * Queues one delivery of `events` (all of one school: an intake batch comes from one terminal) per
 * developer receiving that school's callbacks; answers how many. A batch of a school no developer
 * reads costs one indexed select (developer_schools by school).
 */
export async function enqueueCallbacks(tx: Transaction, schoolId: number, events: readonly OpenRecognitionEvent[], now: Date): Promise<number> {
  if (events.length === 0) return 0;
  const receivers = await tx
    .select({ id: developers.id })
    .from(developerSchools)
    .innerJoin(developers, eq(developers.id, developerSchools.developerId))
    .where(and(eq(developerSchools.schoolId, schoolId), eq(developers.enabled, true), isNotNull(developers.callbackUrl), ne(developers.callbackUrl, ''), isNotNull(developers.secretSealed)));
  if (receivers.length === 0) return 0;
  await tx.insert(developerDeliveries).values(
    receivers.map((developer) => ({
      deliveryId: newDeliveryId(),
      developerId: Number(developer.id),
      schoolId,
      events: events as OpenRecognitionEvent[],
      eventCount: events.length,
      nextAttemptAt: now,
      createdAt: now,
    })),
  );
  return receivers.length;
}
