import { integer, timestamp } from 'drizzle-orm/pg-core';

/** Integer identity key, as every mutable row has (PRODUCT section 3). */
export const id = () => integer('id').primaryKey().generatedByDefaultAsIdentity();

/** Timestamps are stored with time zone (UTC) to the millisecond, so a value read back and sent as a filter matches exactly. */
export const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date', precision: 3 });

/** createdAt, updatedAt and the optimistic-locking version every mutable row carries. */
export const rowStamps = () => ({
  createdAt: timestamptz('created_at').notNull().defaultNow(),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  version: integer('version').notNull().default(1),
});

/** The SQL function giving a value's lower-cased 1- and 2-character pieces (migration 0030). */
export const SEARCH_GRAMS = 'search_grams';

/**
 * The collation names sort in: a copy of ICU's `zh-x-icu` (pinyin) where the server has it, else of
 * "C" (code points; PGlite ships ICU without Chinese data). Created by migration 0030.
 */
export const NAME_COLLATION = 'campus_names';
