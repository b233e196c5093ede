import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, timestamptz } from './columns.js';
import { developers } from './resources.js';

/**
 * The outbox of developer callbacks (developers/callback-queue.ts): one row per developer per intake
 * batch, inserted in the batch's own transaction, so events committed are never without their
 * deliveries. A row waits `pending` until the worker delivers it (then it is deleted: the attempt log,
 * DeveloperDelivery, keeps the record) or gives up (`dead`, kept for an operator's retry).
 */
export const developerDeliveries = pgTable(
  'developer_deliveries',
  {
    id: id(),
    /** The idempotency key sent as x-open-delivery-id, the same on every attempt. */
    deliveryId: text('delivery_id').notNull(),
    developerId: integer('developer_id')
      .notNull()
      .references(() => developers.id, { onDelete: 'cascade' }),
    schoolId: integer('school_id').notNull(),
    /** OpenRecognitionEvent[] with the snapshots' storage addresses: signed at each attempt, as signatures expire. */
    events: jsonb('events').notNull(),
    eventCount: integer('event_count').notNull(),
    state: text('state').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamptz('next_attempt_at').notNull(),
    /** The claim of the worker run sending it now; its result is recorded only under the same claim. */
    leaseId: text('lease_id'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('developer_deliveries_delivery_id_idx').on(t.deliveryId),
    // The worker's claim reads the due pending rows in order: a partial index holds only those.
    index('developer_deliveries_due_idx').on(t.nextAttemptAt).where(sql`state = 'pending'`),
    index('developer_deliveries_developer_id_idx').on(t.developerId),
  ],
);
