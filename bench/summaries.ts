/**
 * bench:summaries — the transaction summaries (日交易汇总 / 月交易汇总) at scale on PostgreSQL. Times
 * POST /api/{Report}/Search and GET /api/{Report}/GetSummary through the real server (p50/p95/p99 of
 * sequential requests) over a database that `seed:scale -- --payments N` filled, checks that the
 * answered totals equal the payments and refunds themselves, and prints what grouping the payments
 * directly would cost instead of reading the rollups.
 *
 *   createdb -h 127.0.0.1 -U postgres campus_bench_fund
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/campus_bench_fund npm run seed:scale -- --students 1000 --devices 0 --payments 1000000
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/campus_bench_fund npm run bench:summaries
 */
import { REFUND_SUCCEEDED, frameOf } from '@campus/contract';
import { parseArgs } from 'node:util';
import os from 'node:os';
import pg from 'pg';
import { loginAs, startBenchServer } from './bench-server.js';
import { callReport, fmt, printReportTimes, type ReportScenario } from './report-scenarios.js';

const { values: options } = parseArgs({ options: { samples: { type: 'string', default: '100' }, 'min-payments': { type: 'string', default: '1000000' } } });
const samples = Number(options.samples);
const minPayments = Number(options['min-payments']);
const url = process.env.DATABASE_URL;
if (!url) throw new Error('bench:summaries runs on PostgreSQL: set DATABASE_URL (see the header of bench/summaries.ts)');

const log = (message: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${message}`);

/** The last whole month in Shanghai: every day of it holds payments of the scale seed (12 months back from now). */
function lastWholeMonth(): { from: string; to: string; label: string } {
  const shanghai = new Date(Date.now() + 8 * 3_600_000);
  const first = new Date(Date.UTC(shanghai.getUTCFullYear(), shanghai.getUTCMonth() - 1, 1));
  const last = new Date(Date.UTC(shanghai.getUTCFullYear(), shanghai.getUTCMonth(), 0));
  const day = (d: Date) => d.toISOString().slice(0, 10);
  return { from: day(first), to: day(last), label: day(first).slice(0, 7) };
}

const month = lastWholeMonth();
const yearStart = new Date(Date.UTC(Number(month.from.slice(0, 4)) - 1, Number(month.from.slice(5, 7)), 1)).toISOString().slice(0, 10);

const SCENARIOS: ReportScenario[] = [
  { id: 'T1', as: 'agent1', what: `日交易汇总, agent scope, ${month.label}, first page`, method: 'POST', path: '/api/TransactionStatistics/Search', body: { dayFrom: month.from, dayTo: month.to } },
  {
    id: 'T2',
    as: 'agent1',
    what: `日交易汇总 chart (GetSummary by day), agent scope, ${month.label}`,
    method: 'GET',
    path: `/api/TransactionStatistics/GetSummary?groupBy=period&dayFrom=${month.from}&dayTo=${month.to}`,
  },
  {
    id: 'T3',
    as: 'agent1',
    what: `日交易汇总 by school, agent scope, ${month.label}`,
    method: 'GET',
    path: `/api/TransactionStatistics/GetSummary?groupBy=schoolId&dayFrom=${month.from}&dayTo=${month.to}`,
  },
  {
    id: 'T4',
    as: 'agent1',
    what: `日交易汇总, agent scope, ${month.label}, sorted by paid`,
    method: 'POST',
    path: '/api/TransactionStatistics/Search',
    body: { dayFrom: month.from, dayTo: month.to, sortField: 'paid', sortOrder: 'desc' },
  },
  { id: 'T5', as: 'admin', what: `日交易汇总, everything, ${month.label}, first page`, method: 'POST', path: '/api/TransactionStatistics/Search', body: { dayFrom: month.from, dayTo: month.to } },
  { id: 'M1', as: 'agent1', what: `月交易汇总, agent scope, ${month.label}`, method: 'POST', path: '/api/TransactionMonthStatistics/Search', body: { dayFrom: month.from, dayTo: month.to } },
  {
    id: 'M2',
    as: 'agent1',
    what: `月交易汇总 chart (GetSummary by month), agent scope, 12 months`,
    method: 'GET',
    path: `/api/TransactionMonthStatistics/GetSummary?groupBy=period&dayFrom=${yearStart}&dayTo=${month.to}`,
  },
];

interface Totals {
  payments: number;
  paid: number;
  refunds: number;
  refunded: number;
}


/** The agent's payments and refunds of the month counted from their own rows (a payment on its paid day, a refund on the day it settled). */
function directTotalsSql(agentId: number): string {
  const inMonth = (column: string) => `(${column} at time zone 'Asia/Shanghai')::date between date '${month.from}' and date '${month.to}'`;
  const schools = `select id from schools where agent_id = ${agentId}`;
  return `select (select count(*) from payment_records where school_id in (${schools}) and ${inMonth('paid_at')})::int as payments,
                 (select coalesce(sum(amount), 0) from payment_records where school_id in (${schools}) and ${inMonth('paid_at')})::bigint as paid,
                 (select count(*) from refunds where state = ${REFUND_SUCCEEDED} and school_id in (${schools}) and ${inMonth('refunded_at')})::int as refunds,
                 (select coalesce(sum(refund_amount), 0) from refunds where state = ${REFUND_SUCCEEDED} and school_id in (${schools}) and ${inMonth('refunded_at')})::bigint as refunded`;
}

async function main(): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const sizes = await client.query<{ t: string; n: string; size: string }>(
      `select c.relname as t, c.reltuples::bigint::text as n, pg_size_pretty(pg_total_relation_size(c.oid)) as size
       from pg_class c where c.relname in ('payment_records', 'agent_fund_entries', 'refunds', 'transaction_day_totals', 'transaction_month_totals') order by c.relname`,
    );
    for (const s of sizes.rows) log(`${s.t.padEnd(26)} ${Number(s.n).toLocaleString('en').padStart(11)} rows  ${s.size}`);
    const [{ n: payments }] = (await client.query<{ n: number }>('select count(*)::int as n from payment_records')).rows as [{ n: number }];
    if (payments < minPayments) throw new Error(`${payments.toLocaleString('en')} payments: run seed:scale -- --payments ${minPayments} first (or pass --min-payments)`);
    const [agent] = (await client.query<{ id: number }>(`select id from users where login_name = 'agent1'`)).rows;
    // Agents hold no summary page by default (default-grants.ts): the company grants it, as on jurisdictionManage.
    for (const index of ['transactionSummaryDay', 'transactionSummaryMonth']) {
      await client.query(
        `insert into grants (subject_type, user_type, frame_id, buttons) select 'type', 'agent', $1, '{}'
         where not exists (select 1 from grants where subject_type = 'type' and user_type = 'agent' and frame_id = $1)`,
        [frameOf(index).fixedId],
      );
    }

    // Sequential requests measure latency; a busy machine must not turn them into shed 503s (as in the e2e server).
    for (const name of ['SHED_EVENT_LOOP_DELAY_MS', 'SHED_EVENT_LOOP_UTILIZATION', 'SHED_DB_QUEUE', 'SHED_DB_WAIT_MS']) process.env[name] ??= '0';
    const server = await startBenchServer(process.env.DATA_DIR ?? './data-bench');
    try {
      const tokens = { admin: await loginAs(server.base, 'admin'), agent1: await loginAs(server.base, 'agent1') };
      // The figures first: the month's totals within agent1's scope equal its payments and refunds.
      const answered = (await callReport(server.base, tokens.agent1, SCENARIOS[0]!)).totals!;
      const [direct] = (await client.query<Totals>(directTotalsSql(agent!.id))).rows;
      const same = (['payments', 'paid', 'refunds', 'refunded'] as const).every((key) => Number(answered[key]) === Number(direct![key]));
      log(`check ${month.label}, agent1: answered ${JSON.stringify(answered)} = counted ${JSON.stringify(direct)}: ${same ? 'ok' : 'MISMATCH'}`);
      if (!same) throw new Error('the summary disagrees with the payments and refunds it sums');

      await printReportTimes(server.base, tokens, SCENARIOS, samples, `${payments.toLocaleString('en')} payments; `);
    } finally {
      await server.stop();
    }
    // What the rollups replace: counting the agent's month from the payments and refunds (psql-side, p50 of 5).
    const times: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const t0 = performance.now();
      await client.query(directTotalsSql(agent!.id));
      times.push(performance.now() - t0);
    }
    console.log(`\nWhat the rollups replace — the agent's month summed from payment_records and refunds (p50 of 5): ${fmt(times.sort((a, b) => a - b)[2]!)} ms`);
    console.log(`load average after: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  } finally {
    await client.end();
  }
}

main().catch((error: unknown) => {
  console.error(`bench:summaries failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
