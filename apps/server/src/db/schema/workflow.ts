import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { id, timestamptz } from './columns.js';
import { users } from './users.js';

/**
 * Every state change of a workflow family's rows: the timeline of the record drawer. One table for
 * all families (states stored as text, read back through the family's enum), written by the engine
 * in the transition's transaction.
 */
export const stateHistory = pgTable(
  'state_history',
  {
    id: id(),
    family: text('family').notNull(),
    rowId: integer('row_id').notNull(),
    fromState: text('from_state'),
    toState: text('to_state').notNull(),
    verb: text('verb').notNull(),
    remark: text('remark'),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (table) => [index('state_history_family_row_id_created_at_idx').on(table.family, table.rowId, table.createdAt)],
);
