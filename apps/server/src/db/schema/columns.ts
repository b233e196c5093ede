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
