import { index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, timestamptz } from './columns.js';
import { parents } from './resources.js';

/**
 * Sessions of the parent app (`/api/App/*`): a table of their own, so a parent's token can never be
 * looked up as a console session and a console token never as a parent's (docs/parent-app.md).
 */
export const parentSessions = pgTable(
  'parent_sessions',
  {
    id: id(),
    tokenHash: text('token_hash').notNull(),
    parentId: integer('parent_id')
      .notNull()
      .references(() => parents.id, { onDelete: 'cascade' }),
    createdAt: timestamptz('created_at').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
    lastSeenAt: timestamptz('last_seen_at').notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (table) => [
    uniqueIndex('parent_sessions_token_hash_unique').on(table.tokenHash),
    index('parent_sessions_parent_id_idx').on(table.parentId),
    index('parent_sessions_expires_at_idx').on(table.expiresAt),
  ],
);

/**
 * The answers of the app's writes by idempotency key: a replay of a key answers what the first call
 * answered; the same key with another body is refused. `answer` is null while the first call runs.
 */
export const appIdempotencyKeys = pgTable(
  'app_idempotency_keys',
  {
    parentId: integer('parent_id')
      .notNull()
      .references(() => parents.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** The call and its body, hashed: the same key sent with another body is a 409. */
    requestHash: text('request_hash').notNull(),
    answer: jsonb('answer'),
    createdAt: timestamptz('created_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.parentId, table.key] }), index('app_idempotency_keys_created_at_idx').on(table.createdAt)],
);
