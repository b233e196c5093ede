import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { id, timestamptz } from './columns.js';

export const SMS_PURPOSES = ['resetPassword', 'password', 'refundPassword', 'parentSignIn'] as const;
export type SmsPurpose = (typeof SMS_PURPOSES)[number];

/** One-time SMS codes, stored hashed. */
export const smsCodes = pgTable(
  'sms_codes',
  {
    id: id(),
    phone: text('phone').notNull(),
    purpose: text('purpose').$type<SmsPurpose>().notNull(),
    codeHash: text('code_hash').notNull(),
    /** Wrong guesses; the code is burnt after a few so six digits cannot be brute-forced. */
    failedAttempts: integer('failed_attempts').notNull().default(0),
    createdAt: timestamptz('created_at').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
    usedAt: timestamptz('used_at'),
    /** The address that asked for the code: the per-address limit counts these. */
    ip: text('ip'),
  },
  (table) => [index('sms_codes_phone_created_at_idx').on(table.phone, table.createdAt), index('sms_codes_ip_created_at_idx').on(table.ip, table.createdAt)],
);

/** Messages of the default SMS provider, readable by an admin instead of a real gateway. */
export const smsOutbox = pgTable(
  'sms_outbox',
  {
    id: id(),
    phone: text('phone').notNull(),
    content: text('content').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (table) => [
    // The SMS outbox page (SmsOutbox, a log family) reads a time range newest first by (created_at, id);
    // the phone filter (`digits`) leads its own, text_pattern_ops serving a prefix (log-table.ts).
    index('sms_outbox_created_at_id_idx').on(table.createdAt, table.id),
    index('sms_outbox_phone_created_at_id_idx').on(table.phone.op('text_pattern_ops'), table.createdAt, table.id),
    // 4+ digits match any part of the phone (ILIKE): a trigram index serves that.
    index('sms_outbox_phone_trgm_idx').using('gin', table.phone.op('gin_trgm_ops')),
  ],
);
