/**
 * bench:stats — the attendance statistics at scale on PostgreSQL. On a database `seed:scale`
 * prepared with recognition records, it migrates (the rollup tables), lets the attendance job catch up
 * with every record past its watermark (timed: the backfill a first start does), then times the
 * schoolStatistics and stuMonthStatistic calls, the DataCenter page's four trends and the other statistics
 * GETs of the seed (Overview, DeviceStatistics, WarehouseStatistics, UserStatistics, FrequentStatistics)
 * through the real server for the company and an agent.
 *
 *   createdb -h 127.0.0.1 -U postgres i31figures
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/i31figures npm run seed:scale -- --students 1000000 --recognitions 10000000
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/i31figures npm run bench:stats
 *   ... npm run bench:stats -- --catch-up-only     # the catch-up alone, timed (a backfill after resetting the watermark)
 */
import { createDatabase } from '@campus/server/src/db/client.js';
import { migrateDatabase } from '@campus/server/src/db/migrate.js';
import { loadEnv } from '@campus/server/src/env.js';
import { rollUpAttendance } from '@campus/server/src/reports/attendance-rollup.js';
import { formatBusinessDate } from '@campus/contract';
import os from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { loginAs, startBenchServer, type Envelope } from './bench-server.js';
import { printReportTimes, type ReportScenario } from './report-scenarios.js';

const { values: options } = parseArgs({
  options: { samples: { type: 'string', default: '100' }, only: { type: 'string' }, 'catch-up-only': { type: 'boolean', default: false } },
});
/** `--only O,V,W`: the scenarios whose id starts with one of these (a second look at a few). */
const only = options.only?.split(',');
const samples = Number(options.samples);
const url = process.env.DATABASE_URL;
if (!url) throw new Error('bench:stats runs on PostgreSQL: set DATABASE_URL (see the header of bench/attendance.ts)');
const log = (message: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${message}`);

async function catchUp(): Promise<void> {
  const env = loadEnv({ ...process.env, LOG_LEVEL: 'warn' });
  const database = await createDatabase(env);
  try {
    await migrateDatabase(database, url);
    const started = performance.now();
    let records = 0;
    for (;;) {
      const result = await rollUpAttendance(database.db, new Date(), { settleSeconds: 0 });
      records += result.records;
      if (result.closedDays > 0) log(`closed ${result.closedDays} days`);
      if (result.vacuumed) log(`vacuumed the school days after ${result.schoolDaysRewritten.toLocaleString('en')} rewrites`);
      if (result.records === 0) break;
      const seconds = (performance.now() - started) / 1000;
      log(`merged ${records.toLocaleString('en')} records (${Math.round(records / seconds).toLocaleString('en')} records/s)`);
    }
    if (records > 0) log(`caught up with ${records.toLocaleString('en')} records in ${((performance.now() - started) / 1000).toFixed(1)} s; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  } finally {
    await database.close();
  }
}

const today = formatBusinessDate(new Date());
const monthStart = `${today.slice(0, 7)}-01`;
const lastMonth = formatBusinessDate(new Date(Date.parse(`${monthStart}T12:00:00+08:00`) - 86_400_000)).slice(0, 7) + '-01';
const daysAgo = (n: number) => formatBusinessDate(new Date(Date.now() - n * 86_400_000));

const SCENARIOS: ReportScenario[] = [
  { id: 'S1', as: 'admin', what: 'schoolStatistics, this month by day × school', method: 'POST', path: '/api/SchoolStatistics/Search', body: {} },
  { id: 'S2', as: 'agent1', what: 'schoolStatistics, agent, this month by day × school', method: 'POST', path: '/api/SchoolStatistics/Search', body: {} },
  { id: 'S3', as: 'admin', what: 'schoolStatistics, 90 days by month × school', method: 'POST', path: '/api/SchoolStatistics/Search', body: { dayFrom: daysAgo(90), dayTo: today, grain: 'month' } },
  { id: 'S4', as: 'agent1', what: 'schoolStatistics, agent, 90 days by week', method: 'POST', path: '/api/SchoolStatistics/Search', body: { dayFrom: daysAgo(90), dayTo: today, grain: 'week' } },
  { id: 'S5', as: 'admin', what: 'schoolStatistics chart (GetSummary by period), 90 days', method: 'GET', path: `/api/SchoolStatistics/GetSummary?groupBy=period&grain=day&dayFrom=${daysAgo(90)}&dayTo=${today}` },
  { id: 'S6', as: 'agent1', what: 'schoolStatistics chart, agent, 90 days', method: 'GET', path: `/api/SchoolStatistics/GetSummary?groupBy=period&grain=day&dayFrom=${daysAgo(90)}&dayTo=${today}` },
  { id: 'M1', as: 'admin', what: 'stuMonthStatistic, this month, 1M students', method: 'POST', path: '/api/DiscernStatistics/Search', body: {} },
  { id: 'M2', as: 'agent1', what: 'stuMonthStatistic, agent, this month', method: 'POST', path: '/api/DiscernStatistics/Search', body: {} },
  { id: 'M3', as: 'admin', what: 'stuMonthStatistic, last month', method: 'POST', path: '/api/DiscernStatistics/Search', body: { dayFrom: lastMonth, dayTo: lastMonth } },
  { id: 'M4', as: 'agent1', what: 'stuMonthStatistic, agent, one school, last month', method: 'POST', path: '/api/DiscernStatistics/Search', body: { dayFrom: lastMonth, dayTo: lastMonth, schoolId: 1 } },
];

/** The DataCenter page's four trends as its panels ask them (30 days by day; the pie by school; 90 days by week), both callers. */
const DATA_CENTER: ReportScenario[] = (['DataCenterRecognitions', 'DataCenterPayments', 'DataCenterAppActivity', 'DataCenterDevices'] as const).flatMap((report, n) =>
  (['admin', 'agent1'] as const).flatMap((as) => [
    { id: `D${n + 1}a`, as, what: `${report}, 30 days by day (chart)`, method: 'GET' as const, path: `/api/${report}/GetSummary?groupBy=period&grain=day&dayFrom=${daysAgo(29)}&dayTo=${today}` },
    { id: `D${n + 1}b`, as, what: `${report}, 30 days by school (pie)`, method: 'GET' as const, path: `/api/${report}/GetSummary?groupBy=schoolId&grain=day&dayFrom=${daysAgo(29)}&dayTo=${today}` },
    { id: `D${n + 1}c`, as, what: `${report}, 90 days by week × school (table)`, method: 'POST' as const, path: `/api/${report}/Search`, body: { dayFrom: daysAgo(90), dayTo: today, grain: 'week' } },
  ]),
);

/** The rest of the seed's statistics GETs (SEED-SPEC section 7) under their names, both callers. */
const OTHER_STATISTICS: ReportScenario[] = (['admin', 'agent1'] as const).flatMap((as) => [
  { id: 'O1', as, what: 'Overview (systemView)', method: 'GET' as const, path: '/api/Overview/GetSummary' },
  { id: 'V1', as, what: 'DeviceStatistics, all devices (Search)', method: 'POST' as const, path: '/api/DeviceStatistics/Search', body: {} },
  { id: 'V2', as, what: 'DeviceStatistics (GetSummary)', method: 'GET' as const, path: '/api/DeviceStatistics/GetSummary' },
  { id: 'W1', as, what: 'WarehouseStatistics, 12 months by month (Search)', method: 'POST' as const, path: '/api/WarehouseStatistics/Search', body: { dayFrom: daysAgo(365), dayTo: today, grain: 'month' } },
  { id: 'W2', as, what: 'WarehouseStatistics (GetSummary)', method: 'GET' as const, path: '/api/WarehouseStatistics/GetSummary' },
  { id: 'U1', as, what: 'UserStatistics per school (Search)', method: 'POST' as const, path: '/api/UserStatistics/Search', body: {} },
  { id: 'U2', as, what: 'UserStatistics by city (GetSummary)', method: 'GET' as const, path: '/api/UserStatistics/GetSummary?groupBy=city' },
  { id: 'F1', as, what: 'FrequentStatistics, 30 days (GetSummary)', method: 'GET' as const, path: `/api/FrequentStatistics/GetSummary?dayFrom=${daysAgo(29)}&dayTo=${today}` },
]);

async function main(): Promise<void> {
  await catchUp();
  if (options['catch-up-only']) return;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`vacuum analyze attendance_student_days, attendance_school_days, attendance_student_months, attendance_school_months,
      attendance_school_periods, attendance_agent_days, transaction_school_periods`);
    const sizes = await client.query<{ t: string; n: string; size: string }>(
      `select c.relname as t, c.reltuples::bigint::text as n, pg_size_pretty(pg_total_relation_size(c.oid)) as size
       from pg_class c where c.relname in ('recognition_records', 'students', 'attendance_student_days', 'attendance_school_days', 'attendance_student_months', 'attendance_school_months',
         'attendance_school_periods', 'attendance_agent_days', 'transaction_day_totals', 'transaction_school_periods') order by c.relname`,
    );
    for (const s of sizes.rows) log(`${s.t.padEnd(26)} ${Number(s.n).toLocaleString('en').padStart(12)} rows  ${s.size}`);
    const server = await startBenchServer(process.env.DATA_DIR ?? './data-bench');
    try {
      const tokens = { admin: await loginAs(server.base, 'admin'), agent1: await loginAs(server.base, 'agent1') };
      // A figure checked against the raw records: yesterday's recognitions over all schools.
      const yesterday = daysAgo(1);
      const [{ n }] = (await client.query<{ n: number }>(`select count(*)::int as n from recognition_records where (recognized_at at time zone 'Asia/Shanghai')::date = $1::date`, [yesterday])).rows as [{ n: number }];
      const answer = (await (
        await fetch(`${server.base}/api/SchoolStatistics/Search`, {
          method: 'POST',
          headers: { authorization: `Bearer ${tokens.admin}`, 'content-type': 'application/json' },
          body: JSON.stringify({ pageIndex: 1, pageSize: 1, dayFrom: yesterday, dayTo: yesterday }),
        })
      ).json()) as Envelope<{ totals: { recognitions: number } }>;
      log(`check: SchoolStatistics recognitions on ${yesterday} ${answer.data.totals.recognitions.toLocaleString('en')} = count(*) of its records ${n.toLocaleString('en')}: ${answer.data.totals.recognitions === n ? 'ok' : 'MISMATCH'}`);
      const scenarios = [...SCENARIOS, ...DATA_CENTER, ...OTHER_STATISTICS].filter((s) => !only || only.some((prefix) => s.id.startsWith(prefix)));
      await printReportTimes(server.base, tokens, scenarios, samples);
    } finally {
      await server.stop();
    }
    console.log(`\nload average after: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  } finally {
    await client.end();
  }
}

main().catch((error: unknown) => {
  console.error(`bench:stats failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
