/**
 * Sources of transactionSummaryDay (TransactionStatistics) and transactionSummaryMonth
 * (TransactionMonthStatistics): they group the day or month rollups the ledger trigger keeps
 * (db/schema/finance.ts `transactionTotals`), never the payments, so a month within an agent's
 * scope reads a few thousand rollup rows however many payments it holds (docs/performance.md).
 */
import { TransactionMonthStatistics, TransactionStatistics, type ReportDef } from '@campus/contract';
import { sql, type SQL } from 'drizzle-orm';
import { appChargeItems, schools, transactionDayTotals, transactionMonthTotals, users } from '../db/schema/index.js';
import { defineReportSource, inScope, periodStartSql, type ReportQuery } from './source.js';

type TotalsTable = typeof transactionDayTotals | typeof transactionMonthTotals;

/** How each dimension is grouped in the rollup (its key column) and answered after the labels are joined. */
const DIMENSIONS: Record<string, { key: (t: TotalsTable, query: ReportQuery) => SQL; answer: SQL[]; join?: SQL }> = {
  period: {
    key: (t, query) => sql`${periodStartSql(t.period, query.period!.grain)} as period`,
    answer: [sql`g.period as "period"`],
  },
  schoolId: {
    key: (t) => sql`${t.schoolId} as school_id`,
    answer: [sql`g.school_id as "schoolId"`, sql`${schools.schoolName} as "schoolIdLabel"`],
    join: sql`left join ${schools} on ${schools.id} = g.school_id`,
  },
  agentId: {
    key: (t) => sql`${t.agentId} as agent_id`,
    // Agent 0 is "none" in the rollup's key: answered as no agent.
    answer: [sql`nullif(g.agent_id, 0) as "agentId"`, sql`${users.name} as "agentIdLabel"`],
    join: sql`left join ${users} on ${users.id} = g.agent_id`,
  },
  channel: {
    key: (t) => sql`${t.channel} as channel`,
    answer: [sql`nullif(g.channel, '') as "channel"`],
  },
  chargeItemId: {
    key: (t) => sql`${t.chargeItemId} as charge_item_id`,
    answer: [sql`nullif(g.charge_item_id, 0) as "chargeItemId"`, sql`${appChargeItems.name} as "chargeItemIdLabel"`],
    join: sql`left join ${appChargeItems} on ${appChargeItems.id} = g.charge_item_id`,
  },
};

const MEASURES = sql.raw(`g.payments as "payments", g.paid as "paid", g.refunds as "refunds", g.refunded as "refunded",
  g.paid - g.refunded as "net", g.company_share as "companyShare", g.agent_share as "agentShare", g.school_share as "schoolShare"`);

/**
 * The groups of one rollup: summed per key first (no joins over the rollup rows), then the few
 * groups get their schools', agents' and charge items' names.
 */
function groupedTotals(table: TotalsTable, query: ReportQuery, firstPeriod: (from: string) => SQL): SQL {
  const { filters, period, groupBy } = query;
  if (!period) throw new Error('a transaction summary is declared with a period');
  const conditions: SQL[] = [sql`${table.period} between ${firstPeriod(period.from)} and ${period.to}::date`, inScope(query, table.schoolId)];
  if (filters.schoolId !== undefined) conditions.push(sql`${table.schoolId} = ${filters.schoolId}`);
  if (filters.agentId !== undefined) conditions.push(sql`${table.agentId} = ${filters.agentId}`);
  if (filters.channel !== undefined) conditions.push(sql`${table.channel} = ${filters.channel}`);
  if (filters.chargeItemId !== undefined) conditions.push(sql`${table.chargeItemId} = ${filters.chargeItemId}`);
  const dimensions = groupBy.map((name) => DIMENSIONS[name]!);
  const keys = dimensions.map((dimension) => dimension.key(table, query));
  const sums = sql.raw(`sum(payments)::int as payments, sum(paid)::bigint as paid, sum(refunds)::int as refunds, sum(refunded)::bigint as refunded,
    sum(company_share)::bigint as company_share, sum(agent_share)::bigint as agent_share, sum(school_share)::bigint as school_share`);
  const inner = sql`select ${sql.join([...keys, sums], sql`, `)}
    from ${table} where ${sql.join(conditions, sql` and `)}
    ${keys.length > 0 ? sql.raw(`group by ${keys.map((_, i) => i + 1).join(', ')}`) : sql``}
    having sum(payments) <> 0 or sum(refunds) <> 0`;
  return sql`select ${sql.join([...dimensions.flatMap((dimension) => dimension.answer), MEASURES], sql`, `)}
    from (${inner}) g ${sql.join(
      dimensions.flatMap((dimension) => (dimension.join ? [dimension.join] : [])),
      sql` `,
    )}`;
}

function defineTotalsSource(def: ReportDef, table: TotalsTable, firstPeriod: (from: string) => SQL): void {
  defineReportSource(def, { grouped: (query) => groupedTotals(table, query, firstPeriod) });
}

defineTotalsSource(TransactionStatistics, transactionDayTotals, (from) => sql`${from}::date`);
// A month row covers its whole month: the range takes every month it touches.
defineTotalsSource(TransactionMonthStatistics, transactionMonthTotals, (from) => sql`date_trunc('month', ${from}::date)::date`);
