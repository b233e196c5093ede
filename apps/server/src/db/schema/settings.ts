import { integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.js';

/** System settings as key → JSON value; the key is the row's identity. */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  version: integer('version').notNull().default(1),
});
