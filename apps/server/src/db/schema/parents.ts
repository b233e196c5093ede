import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, timestamptz } from './columns.js';
import { parents } from './resources.js';

/**
 * The devices a parent's pushes go to (parents/push-tokens.ts): one row per platform and device token,
 * moved to the parent who registered it last (a phone changing hands stops the old parent's pushes).
 */
export const pushTokens = pgTable(
  'push_tokens',
  {
    id: id(),
    parentId: integer('parent_id')
      .notNull()
      .references(() => parents.id, { onDelete: 'cascade' }),
    platform: text('platform').notNull(),
    token: text('token').notNull(),
    appVersion: text('app_version'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('push_tokens_platform_token_idx').on(t.platform, t.token), index('push_tokens_parent_id_idx').on(t.parentId)],
);
