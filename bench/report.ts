/**
 * bench:report — the device reports at scale on PostgreSQL. Loads devices (1,000,000 by default)
 * into a database that `seed:scale` prepared (schools, agents), in lots as a warehouse receives and
 * ships them, then times POST /api/{Report}/Search and GET /api/{Report}/GetSummary through the real
 * server (p50/p95/p99 of sequential requests), beside the cost of grouping the devices table itself.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/campus_bench_reports npm run seed:scale -- --students 1000 --devices 0
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/campus_bench_reports npm run bench:report
 */
import { parseArgs } from 'node:util';
import os from 'node:os';
import pg from 'pg';
import { loginAs, startBenchServer, type Envelope } from './bench-server.js';
import { fmt, printReportTimes, type ReportScenario } from './report-scenarios.js';

const LOT_SIZE = 20;
const BATCH = 100_000;

const { values: options } = parseArgs({ options: { devices: { type: 'string', default: '1000000' }, samples: { type: 'string', default: '100' } } });
const targetDevices = Number(options.devices);
const samples = Number(options.samples);
const url = process.env.DATABASE_URL;
if (!url) throw new Error('bench:report runs on PostgreSQL: set DATABASE_URL (see the header of bench/report.ts)');

const hash = (expr: string, salt: number) => `(abs(hashint8extended((${expr})::bigint, ${salt}) % 2147483647))`;
const log = (message: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${message}`);

/**
 * Devices in lots of 20 of one model: a lot is stocked on one day (lots spread over three years),
 * 8 % of lots are still in stock, the others are shipped to one school 0–29 days later and installed
 * 0–13 days after that, each device then in a state like the scale seed's (70 % installed).
 */
async function loadDevices(client: pg.Client): Promise<void> {
  const { rows } = await client.query<{ n: number; base: number }>('select count(*)::int as n, coalesce(max(id), 0)::int as base from devices');
  const missing = targetDevices - Number(rows[0]!.n);
  if (missing <= 0) return log(`devices already hold ${rows[0]!.n.toLocaleString('en')} rows`);
  const classes = (await client.query<{ code: string; sn_prefix: string }>('select code, sn_prefix from device_classes order by id')).rows;
  const array = (values: string[]) => `array[${values.map((v) => `'${v}'`).join(',')}]`;
  const base = Number(rows[0]!.base);
  const lots = Math.ceil(targetDevices / LOT_SIZE);
  const started = performance.now();
  for (let from = 1; from <= missing; from += BATCH) {
    const to = Math.min(missing, from + BATCH - 1);
    await client.query(`
      insert into devices (id, serial_number, device_class_code, school_id, state, created_at, updated_at, shipped_at, installed_at)
      select ${base} + d, (${array(classes.map((c) => c.sn_prefix))})[lot % ${classes.length} + 1] || 'R' || lpad(d::text, 8, '0'),
             (${array(classes.map((c) => c.code))})[lot % ${classes.length} + 1],
             case when in_stock then null else sids.a[${hash('lot', 2)} % array_length(sids.a, 1) + 1] end,
             state, stocked, stocked,
             case when not in_stock then least(now(), shipped) end,
             case when state in (3, 4, 5) then least(now(), shipped + (${hash('lot', 5)} % 14) * interval '1 day') end
      from (select array_agg(id order by id) a from schools) sids, generate_series(${from}, ${to}) d,
           lateral (select (d - 1) / ${LOT_SIZE} as lot) l,
           lateral (select ${hash('lot', 1)} % 100 < 8 as in_stock,
                           now() - (${lots} - lot) * (interval '3 years' / ${lots}) as stocked) s,
           lateral (select case when in_stock then 1 else (array[2, 3, 3, 3, 3, 3, 3, 4, 5])[${hash('d', 3)} % 9 + 1] end as state,
                           stocked + (${hash('lot', 4)} % 30) * interval '1 day' as shipped) x`);
    log(`devices ${to.toLocaleString('en')} / ${missing.toLocaleString('en')}`);
  }
  await client.query(`select setval(pg_get_serial_sequence('devices', 'id'), (select max(id) from devices))`);
  log(`loaded ${missing.toLocaleString('en')} devices (rollups kept by the triggers) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  await client.query('vacuum analyze devices, device_state_counts, device_day_counts, device_agent_day_counts');
}

const today = new Date().toISOString().slice(0, 10);
const yearAgo = new Date(Date.now() - 364 * 86_400_000).toISOString().slice(0, 10);
const threeYearsAgo = new Date(Date.now() - 3 * 365 * 86_400_000).toISOString().slice(0, 10);

const SCENARIOS: ReportScenario[] = [
  { id: 'P1', as: 'admin', what: 'productStatistics, all devices', method: 'POST', path: '/api/DeviceStatistics/Search', body: {} },
  { id: 'P2', as: 'agent1', what: 'productStatistics, agent scope (500 schools)', method: 'POST', path: '/api/DeviceStatistics/Search', body: {} },
  { id: 'P3', as: 'admin', what: 'productStatistics, province 浙江省 + type gate', method: 'POST', path: '/api/DeviceStatistics/Search', body: { province: '浙江省', deviceType: 1 } },
  { id: 'W1', as: 'admin', what: 'warehousing, 12 months by month × agent', method: 'POST', path: '/api/WarehouseStatistics/Search', body: { dayFrom: yearAgo, dayTo: today, grain: 'month' } },
  { id: 'W2', as: 'agent1', what: 'warehousing, agent scope, 12 months by month', method: 'POST', path: '/api/WarehouseStatistics/Search', body: { dayFrom: yearAgo, dayTo: today, grain: 'month' } },
  { id: 'W3', as: 'admin', what: 'warehousing, 3 years by week', method: 'POST', path: '/api/WarehouseStatistics/Search', body: { dayFrom: threeYearsAgo, dayTo: today, grain: 'week' } },
  { id: 'W4', as: 'agent1', what: 'warehousing, agent scope, 1 year by day', method: 'POST', path: '/api/WarehouseStatistics/Search', body: { dayFrom: yearAgo, dayTo: today, grain: 'day' } },
  {
    id: 'W5',
    as: 'admin',
    what: 'warehousing chart (GetSummary by period), 3 years by month',
    method: 'GET',
    path: `/api/WarehouseStatistics/GetSummary?groupBy=period&grain=month&dayFrom=${threeYearsAgo}&dayTo=${today}`,
  },
];


/** What grouping the devices table directly costs (the query the rollup replaces), p50 of 5 runs. */
async function directScan(client: pg.Client, agentId: number): Promise<[string, number][]> {
  const queries: [string, string][] = [
    ['devices by model × state, all', 'select device_class_code, state, count(*) from devices group by 1, 2'],
    ['devices by model × state, agent scope', `select device_class_code, state, count(*) from devices where school_id in (select id from schools where agent_id = ${agentId}) group by 1, 2`],
    ['devices stocked by month × agent, 12 months', `select date_trunc('month', (d.created_at at time zone 'Asia/Shanghai')), s.agent_id, count(*) from devices d left join schools s on s.id = d.school_id where d.created_at >= now() - interval '1 year' group by 1, 2`],
  ];
  const figures: [string, number][] = [];
  for (const [what, text] of queries) {
    const times: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const t0 = performance.now();
      await client.query(text);
      times.push(performance.now() - t0);
    }
    figures.push([what, times.sort((a, b) => a - b)[2]!]);
  }
  return figures;
}

async function main(): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await loadDevices(client);
    const sizes = await client.query<{ t: string; n: string; size: string }>(
      `select c.relname as t, c.reltuples::bigint::text as n, pg_size_pretty(pg_total_relation_size(c.oid)) as size
       from pg_class c where c.relname in ('devices', 'device_state_counts', 'device_day_counts', 'device_agent_day_counts') order by c.relname`,
    );
    for (const s of sizes.rows) log(`${s.t.padEnd(24)} ${Number(s.n).toLocaleString('en').padStart(11)} rows  ${s.size}`);
    const [agent] = (await client.query<{ id: number }>(`select id from users where login_name = 'agent1'`)).rows;

    const server = await startBenchServer(process.env.DATA_DIR ?? './data-bench');
    try {
      const tokens = { admin: await loginAs(server.base, 'admin'), agent1: await loginAs(server.base, 'agent1') };
      const [{ n: devices }] = (await client.query<{ n: number }>('select count(*)::int as n from devices')).rows as [{ n: number }];
      const check = (await (
        await fetch(`${server.base}/api/DeviceStatistics/Search`, { method: 'POST', headers: { authorization: `Bearer ${tokens.admin}`, 'content-type': 'application/json' }, body: '{}' })
      ).json()) as Envelope<{ totals: { total: number } }>;
      log(`check: DeviceStatistics total ${check.data.totals.total.toLocaleString('en')} = count(*) devices ${devices.toLocaleString('en')}: ${check.data.totals.total === devices ? 'ok' : 'MISMATCH'}`);
      await printReportTimes(server.base, tokens, SCENARIOS, samples);
    } finally {
      await server.stop();
    }
    console.log('\nWhat the rollups replace — grouping the devices table directly (psql-side, p50 of 5):\n');
    for (const [what, ms] of await directScan(client, agent!.id)) console.log(`- ${what}: ${fmt(ms)} ms`);
    console.log(`\nload average after: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  } finally {
    await client.end();
  }
}

main().catch((error: unknown) => {
  console.error(`bench:report failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
