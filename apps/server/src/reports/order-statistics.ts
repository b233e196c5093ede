/**
 * Source of orderStatistics (OrderStatistics): device orders and mall orders as one list (kind,
 * business day, agent, state, amount), grouped. Each table is read by its (school, created_at) index
 * over the range; an order's agent is the device order's own, else its school's.
 */
import { ORDER_KIND_DEVICE, ORDER_KIND_MALL, OrderStatistics } from '@campus/contract';
import { sql, type SQL } from 'drizzle-orm';
import { marketOrders, orders as deviceOrders, schools, users } from '../db/schema/index.js';
import { defineReportSource, inScope, periodStartSql, type ReportQuery } from './source.js';

/** Both kinds of order in the caller's scope and range, one row each. */
function ordersOf(query: ReportQuery): SQL {
  const { period, filters } = query;
  if (!period) throw new Error('OrderStatistics is declared with a period');
  const from = sql`(${period.from}::date)::timestamp at time zone 'Asia/Shanghai'`;
  const to = sql`(${period.to}::date + 1)::timestamp at time zone 'Asia/Shanghai'`;
  const parts: SQL[] = [];
  const common = (table: typeof deviceOrders | typeof marketOrders) => {
    const conditions = [sql`o.created_at >= ${from} and o.created_at < ${to}`, inScope(query, sql`o.school_id`)];
    if (filters.schoolId !== undefined) conditions.push(sql`o.school_id = ${filters.schoolId}`);
    return { table, where: sql.join(conditions, sql` and `) };
  };
  if (filters.orderKind === undefined || filters.orderKind === ORDER_KIND_DEVICE) {
    const { table, where } = common(deviceOrders);
    parts.push(sql`select ${ORDER_KIND_DEVICE}::int as kind, o.created_at, coalesce(o.agent_id, s.agent_id) as agent_id, 100 + o.state as state, coalesce(o.total_amount, 0) as amount
      from ${table} o left join ${schools} s on s.id = o.school_id where ${where}`);
  }
  if (filters.orderKind === undefined || filters.orderKind === ORDER_KIND_MALL) {
    const { table, where } = common(marketOrders);
    parts.push(sql`select ${ORDER_KIND_MALL}::int as kind, o.created_at, s.agent_id, 200 + o.state as state, coalesce(o.pay_amount, o.total_amount, 0) as amount
      from ${table} o left join ${schools} s on s.id = o.school_id where ${where}`);
  }
  const union = parts.length > 0 ? sql.join(parts, sql` union all `) : sql`select 0 as kind, now() as created_at, 0 as agent_id, 0 as state, 0 as amount where false`;
  return filters.agentId === undefined ? union : sql`select * from (${union}) a where a.agent_id = ${filters.agentId}`;
}

const KEYS: Record<string, (query: ReportQuery) => SQL> = {
  period: (query) => sql`${periodStartSql(sql`(r.created_at at time zone 'Asia/Shanghai')::date`, query.period!.grain)} as "period"`,
  orderKind: () => sql`r.kind as "orderKind"`,
  agentId: () => sql`r.agent_id as "agentId"`,
  state: () => sql`r.state as "state"`,
};

export const orderStatisticsReport = defineReportSource(OrderStatistics, {
  grouped(query) {
    const keys = query.groupBy.map((name) => KEYS[name]!(query));
    const groupBy = keys.length > 0 ? sql.raw(`group by ${keys.map((_, i) => i + 1).join(', ')}`) : sql``;
    return sql`select ${sql.join([...keys, sql`count(*)::int as "orders", coalesce(sum(r.amount), 0)::bigint as "amount"`], sql`, `)} from (${ordersOf(query)}) r ${groupBy}`;
  },
  labels(rows, query) {
    if (!query.groupBy.includes('agentId')) return rows;
    return sql`select l.*, ${users.name} as "agentIdLabel" from (${rows}) l left join ${users} on ${users.id} = l."agentId"`;
  },
});
