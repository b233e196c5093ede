import { boolean, integer, jsonb, pgTable } from 'drizzle-orm/pg-core';
import { id, timestamptz } from './columns.js';

/**
 * One row per run of the nightly ledger check: how much it proved and what disagreed. A failed run
 * is kept here (and logged) so an operator can read what broke and when.
 */
export const ledgerChecks = pgTable('ledger_checks', {
  id: id(),
  checkedAt: timestamptz('checked_at').notNull().defaultNow(),
  accountsChecked: integer('accounts_checked').notNull(),
  paymentsChecked: integer('payments_checked').notNull(),
  isConsistent: boolean('is_consistent').notNull(),
  /** The accounts whose balance is not the sum of their entries and the payments not equal to their legs. */
  mismatches: jsonb('mismatches').notNull(),
});
