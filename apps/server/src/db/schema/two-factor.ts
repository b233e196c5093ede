import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, timestamptz } from './columns.js';
import { users } from './users.js';

/**
 * An account's TOTP authenticator (ASVS 4.3.1). The secret is stored encrypted with the deployment's
 * key (platform/two-factor.ts); a row without `confirmedAt` is an enrolment not yet confirmed with a
 * code and does not guard the login.
 */
export const userTotp = pgTable('user_totp', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secretEncrypted: text('secret_encrypted').notNull(),
  createdAt: timestamptz('created_at').notNull(),
  confirmedAt: timestamptz('confirmed_at'),
  /** The newest time step a code was accepted for: a code is never accepted twice. */
  lastStep: integer('last_step'),
});

/** One-time recovery codes of an account with TOTP; only their SHA-256 is stored. */
export const userRecoveryCodes = pgTable(
  'user_recovery_codes',
  {
    id: id(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    createdAt: timestamptz('created_at').notNull(),
    usedAt: timestamptz('used_at'),
  },
  (table) => [uniqueIndex('user_recovery_codes_user_id_code_hash_unique').on(table.userId, table.codeHash)],
);

/**
 * A login halfway through: the password was right and the account needs its second factor. Only the
 * SHA-256 of the challenge token is stored; it is short-lived and used once.
 */
export const loginChallenges = pgTable(
  'login_challenges',
  {
    id: id(),
    tokenHash: text('token_hash').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    ip: text('ip').notNull(),
    createdAt: timestamptz('created_at').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
    usedAt: timestamptz('used_at'),
  },
  (table) => [uniqueIndex('login_challenges_token_hash_unique').on(table.tokenHash), index('login_challenges_expires_at_idx').on(table.expiresAt)],
);
