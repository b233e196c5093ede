import { bigint, boolean, date, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
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

/**
 * The transaction summaries' rollups (transactionSummaryDay / transactionSummaryMonth): per business
 * day or month (Asia/Shanghai), school, the payment's agent, channel and charge item — payments and
 * what they paid, refunds and what they took back, and the net shares of the split. Kept by a
 * statement trigger on `agent_fund_entries` (migration `*_transaction-totals-trigger.sql`): every
 * payment posts its legs and every succeeded refund its reversal in the transaction that records it,
 * so the rollups move with the money or not at all. A refund counts on the day it settled. Agent 0
 * and charge item 0 stand for none, so the keys have no nulls.
 */
function transactionTotals(name: string, periodColumn: 'day' | 'month') {
  return pgTable(
    name,
    {
      period: date(periodColumn, { mode: 'string' }).notNull(),
      schoolId: integer('school_id').notNull(),
      agentId: integer('agent_id').notNull(),
      channel: text('channel').notNull(),
      chargeItemId: integer('charge_item_id').notNull(),
      payments: integer('payments').notNull().default(0),
      paid: bigint('paid', { mode: 'number' }).notNull().default(0),
      refunds: integer('refunds').notNull().default(0),
      refunded: bigint('refunded', { mode: 'number' }).notNull().default(0),
      companyShare: bigint('company_share', { mode: 'number' }).notNull().default(0),
      agentShare: bigint('agent_share', { mode: 'number' }).notNull().default(0),
      schoolShare: bigint('school_share', { mode: 'number' }).notNull().default(0),
      // Mall merchants' legs (issue 29): with the three above, the shares sum to what was paid less refunded.
      merchantShare: bigint('merchant_share', { mode: 'number' }).notNull().default(0),
    },
    (t) => [
      primaryKey({ columns: [t.period, t.schoolId, t.agentId, t.channel, t.chargeItemId] }),
      // Scoped callers read their schools' periods; company-wide callers read the primary key by period.
      index(`${name}_school_id_${periodColumn}_idx`).on(t.schoolId, t.period),
    ],
  );
}

/** Per business day: transactionSummaryDay. */
export const transactionDayTotals = transactionTotals('transaction_day_totals', 'day');
/** Per month (its first day): transactionSummaryMonth, a month reading a few rows per school instead of thirty. */
export const transactionMonthTotals = transactionTotals('transaction_month_totals', 'month');

/**
 * `transaction_day_totals` summed per school, without the agent, channel and charge item, per day,
 * whole week (Monday) and month (`grain`): the DataCenter's payments trend reads a row per school and
 * piece of its range (reports/period-pieces.ts) instead of one per day, channel and item. Kept by
 * statement triggers on the day totals (migration `*_coarse-rollups.sql`), in the
 * transaction of the ledger posting that moved them.
 */
export const transactionSchoolPeriods = pgTable(
  'transaction_school_periods',
  {
    grain: text('grain').notNull(),
    period: date('period', { mode: 'string' }).notNull(),
    schoolId: integer('school_id').notNull(),
    payments: integer('payments').notNull().default(0),
    paid: bigint('paid', { mode: 'number' }).notNull().default(0),
    refunds: integer('refunds').notNull().default(0),
    refunded: bigint('refunded', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.grain, t.period, t.schoolId] }), index('transaction_school_periods_school_id_grain_period_idx').on(t.schoolId, t.grain, t.period)],
);
