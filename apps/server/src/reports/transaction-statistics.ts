/**
 * Sources of transactionSummaryDay (TransactionStatistics) and transactionSummaryMonth
 * (TransactionMonthStatistics): they group the day or month rollups the ledger trigger keeps
 * (db/schema/finance.ts `transactionTotals`), never the payments, so a month within an agent's
 * scope reads a few thousand rollup rows however many payments it holds. A month holds almost one
 * group per payment, so Search names only its page's groups and sums its totals from the rows
 * (docs/performance.md).
 */
import { TransactionMonthStatistics, TransactionStatistics, type ReportDef, type ReportGrain } from '@campus/contract';
import { sql, type SQL } from 'drizzle-orm';
import { appChargeItems, schools, transactionDayTotals, transactionMonthTotals, users } from '../db/schema/index.js';
import { defineReportSource, inScope, periodStartDateSql, type ReportModule, type ReportQuery } from './source.js';

type TotalsTable = typeof transactionDayTotals | typeof transactionMonthTotals;

/** A rollup: its table, the grain of its rows, and the first of its periods a range starting on a day takes. */
interface Rollup {
  table: TotalsTable;
  grain: ReportGrain;
  firstPeriod: (from: string) => SQL;
}

/**
 * How each dimension is grouped in the rollup (its key column), answered from the summed groups,
 * and, for references, named by a join on the answered id (done for the rows asked, not every group).
 */
const DIMENSIONS: Record<string, { key: (rollup: Rollup, query: ReportQuery) => SQL; answer: SQL; label?: { column: SQL; join: SQL } }> = {
  period: {
    // The period's first day as a date (answered as YYYY-MM-DD by both drivers): the rollup's own
    // column at its own grain, else truncated — a date is a cheaper key than its text.
    key: (rollup, query) => sql`${query.period!.grain === rollup.grain ? rollup.table.period : periodStartDateSql(rollup.table.period, query.period!.grain)} as period`,
    answer: sql`g.period as "period"`,
  },
  schoolId: {
    key: ({ table }) => sql`${table.schoolId} as school_id`,
    answer: sql`g.school_id as "schoolId"`,
    label: { column: sql`${schools.schoolName} as "schoolIdLabel"`, join: sql`left join ${schools} on ${schools.id} = l."schoolId"` },
  },
  agentId: {
    key: ({ table }) => sql`${table.agentId} as agent_id`,
    // Agent 0 is "none" in the rollup's key: answered as no agent.
    answer: sql`nullif(g.agent_id, 0) as "agentId"`,
    label: { column: sql`${users.name} as "agentIdLabel"`, join: sql`left join ${users} on ${users.id} = l."agentId"` },
  },
  channel: {
    key: ({ table }) => sql`${table.channel} as channel`,
    answer: sql`nullif(g.channel, '') as "channel"`,
  },
  chargeItemId: {
    key: ({ table }) => sql`${table.chargeItemId} as charge_item_id`,
    answer: sql`nullif(g.charge_item_id, 0) as "chargeItemId"`,
    label: { column: sql`${appChargeItems.name} as "chargeItemIdLabel"`, join: sql`left join ${appChargeItems} on ${appChargeItems.id} = l."chargeItemId"` },
  },
};

const MEASURES = sql.raw(`g.payments as "payments", g.paid as "paid", g.refunds as "refunds", g.refunded as "refunded",
  g.paid - g.refunded as "net", g.company_share as "companyShare", g.agent_share as "agentShare", g.school_share as "schoolShare", g.merchant_share as "merchantShare"`);

const SUMS = sql.raw(`sum(payments)::int as payments, sum(paid)::bigint as paid, sum(refunds)::int as refunds, sum(refunded)::bigint as refunded,
    sum(company_share)::bigint as company_share, sum(agent_share)::bigint as agent_share, sum(school_share)::bigint as school_share, sum(merchant_share)::bigint as merchant_share`);

/** A rollup row's own figures, typed as SUMS answers them. */
const ROW = sql.raw(`payments, paid, refunds, refunded, company_share, agent_share, school_share, merchant_share`);

/** The rollup rows of the period, the caller's scope and the filters. */
function conditionsOf({ table, firstPeriod }: Rollup, query: ReportQuery): SQL {
  const { filters, period } = query;
  if (!period) throw new Error('a transaction summary is declared with a period');
  const conditions: SQL[] = [sql`${table.period} between ${firstPeriod(period.from)} and ${period.to}::date`, inScope(query, table.schoolId)];
  if (filters.schoolId !== undefined) conditions.push(sql`${table.schoolId} = ${filters.schoolId}`);
  if (filters.agentId !== undefined) conditions.push(sql`${table.agentId} = ${filters.agentId}`);
  if (filters.channel !== undefined) conditions.push(sql`${table.channel} = ${filters.channel}`);
  if (filters.chargeItemId !== undefined) conditions.push(sql`${table.chargeItemId} = ${filters.chargeItemId}`);
  return sql.join(conditions, sql` and `);
}

/**
 * The groups of one rollup, without any join (`labels` names them). Grouped by every dimension at
 * the rollup's own grain — what Search asks — a group is exactly one row (the rollup's key), so the
 * rows are read as they are: grouping an agent's month, 38,000 rows into as many groups, cost more
 * than the rest of the Search.
 */
function groupedTotals(rollup: Rollup, query: ReportQuery): SQL {
  const dimensions = query.groupBy.map((name) => DIMENSIONS[name]!);
  const keys = dimensions.map((dimension) => dimension.key(rollup, query));
  const onePerRow = query.period?.grain === rollup.grain && Object.keys(DIMENSIONS).every((name) => query.groupBy.includes(name));
  const inner = onePerRow
    ? sql`select ${sql.join([...keys, ROW], sql`, `)}
      from ${rollup.table} where ${conditionsOf(rollup, query)} and (payments <> 0 or refunds <> 0)`
    : sql`select ${sql.join([...keys, SUMS], sql`, `)}
      from ${rollup.table} where ${conditionsOf(rollup, query)}
      ${keys.length > 0 ? sql.raw(`group by ${keys.map((_, i) => i + 1).join(', ')}`) : sql``}
      having sum(payments) <> 0 or sum(refunds) <> 0`;
  return sql`select ${sql.join([...dimensions.map((dimension) => dimension.answer), MEASURES], sql`, `)} from (${inner}) g`;
}

/** The schools', agents' and charge items' names of the given groups. */
function labelsOf(rows: SQL, query: ReportQuery): SQL {
  const labels = query.groupBy.flatMap((name) => (DIMENSIONS[name]!.label ? [DIMENSIONS[name]!.label] : []));
  if (labels.length === 0) return rows;
  return sql`select l.*, ${sql.join(
    labels.map((label) => label.column),
    sql`, `,
  )} from (${rows}) l ${sql.join(
    labels.map((label) => label.join),
    sql` `,
  )}`;
}

/**
 * The totals of every group as one sum over the rollup rows: a row is one key, each with a payment
 * or a refund (the trigger writes no other), so no group is dropped by `having` and summing the
 * rows equals summing the groups — without grouping tens of thousands of them first.
 */
function totalsOf(rollup: Rollup, query: ReportQuery): SQL {
  return sql`select ${MEASURES} from (select ${SUMS} from ${rollup.table} where ${conditionsOf(rollup, query)}) g`;
}

function defineTotalsSource(def: ReportDef, rollup: Rollup): ReportModule {
  return defineReportSource(def, {
    grouped: (query) => groupedTotals(rollup, query),
    labels: labelsOf,
    totals: (query) => totalsOf(rollup, query),
  });
}

export const transactionStatisticsReport = defineTotalsSource(TransactionStatistics, { table: transactionDayTotals, grain: 'day', firstPeriod: (from) => sql`${from}::date` });
// A month row covers its whole month: the range takes every month it touches.
export const transactionMonthStatisticsReport = defineTotalsSource(TransactionMonthStatistics, { table: transactionMonthTotals, grain: 'month', firstPeriod: (from) => sql`date_trunc('month', ${from}::date)::date` });
