import { LOGIN_OUTCOMES, type LoginOutcome } from '@campus/contract';
import { index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { id, timestamptz } from './columns.js';
import { users } from './users.js';

export { LOGIN_OUTCOMES, type LoginOutcome };

/** Every login attempt: the login log, and the counts behind account lockout and the per-address limit. */
export const loginAttempts = pgTable(
  'login_attempts',
  {
    id: id(),
    loginName: text('login_name').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    ip: text('ip').notNull(),
    userAgent: text('user_agent'),
    outcome: text('outcome').$type<LoginOutcome>().notNull(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (table) => [
    // The login log (LoginLog, a log family) reads a time range newest first by (created_at, id);
    // its filters lead their indexes and end with the same key (log-table.ts).
    index('login_attempts_created_at_id_idx').on(table.createdAt, table.id),
    index('login_attempts_outcome_created_at_id_idx').on(table.outcome, table.createdAt, table.id),
    // text_pattern_ops serves the log's prefix filter and the login throttle's equality alike.
    index('login_attempts_ip_created_at_id_idx').on(table.ip.op('text_pattern_ops'), table.createdAt, table.id),
    // The login throttle reads one account's latest attempts.
    index('login_attempts_login_name_created_at_idx').on(table.loginName, table.createdAt),
    // The login log searches accounts by a part of the name, case-insensitively (ILIKE): a trigram index serves that.
    index('login_attempts_login_name_trgm_idx').using('gin', table.loginName.op('gin_trgm_ops')),
  ],
);

/** Who changed what: written by every resource write; rows are never updated (no version). */
export const operationLog = pgTable(
  'operation_log',
  {
    id: id(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    family: text('family').notNull(),
    action: text('action').notNull(),
    ids: integer('ids').array().notNull().default([]),
    changes: jsonb('changes'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (table) => [
    // The operation log (OperationLog, a log family) reads a time range newest first by (created_at, id).
    index('operation_log_created_at_id_idx').on(table.createdAt, table.id),
    index('operation_log_family_created_at_id_idx').on(table.family, table.createdAt, table.id),
    index('operation_log_user_id_created_at_id_idx').on(table.userId, table.createdAt, table.id),
    index('operation_log_action_created_at_id_idx').on(table.action, table.createdAt, table.id),
  ],
);
