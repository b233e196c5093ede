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
    // The login log pages newest first over every attempt.
    index('login_attempts_created_at_idx').on(table.createdAt),
    index('login_attempts_login_name_created_at_idx').on(table.loginName, table.createdAt),
    // The login log searches accounts by prefix, case-insensitively (ILIKE): a trigram index serves that.
    index('login_attempts_login_name_trgm_idx').using('gin', table.loginName.op('gin_trgm_ops')),
    index('login_attempts_ip_created_at_idx').on(table.ip, table.createdAt),
  ],
);

/** Who changed what: written by every resource write. */
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
    index('operation_log_family_created_at_idx').on(table.family, table.createdAt),
    index('operation_log_user_id_created_at_idx').on(table.userId, table.createdAt),
  ],
);
