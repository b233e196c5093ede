import type { FilterView, HomeWidgetSetting, TableSettings } from '@campus/contract';
import { integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.js';
import { users } from './users.js';

/**
 * One user's preferences for one list page (`frame.Family`): the table layout and the named filter
 * presets. Both are validated and bounded by the contract before they are written; the page key is
 * one of the known frames and families, so a user has at most one row per list page.
 */
export const userPreferences = pgTable(
  'user_preferences',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    page: text('page').notNull(),
    /** Null until the user changes the layout, and again after a reset. */
    tableSettings: jsonb('table_settings').$type<TableSettings>(),
    views: jsonb('views').$type<FilterView[]>().notNull().default([]),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.page] })],
);

/** The widgets of one user's home page, in order, each shown or not (homeCustomization). */
export const userHomeWidgets = pgTable('user_home_widgets', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  widgets: jsonb('widgets').$type<HomeWidgetSetting[]>().notNull(),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
});
