/**
 * bench:appuse — the six app-use statistics and the app's ReportUse call at scale on PostgreSQL. On a
 * database `seed:scale` filled (schools, parents, the demo accounts), it generates a large app-use log
 * (--events, over --days days up to now, from a third of the parents, once: a second run reuses it),
 * rolls it up with the job's own function (timed), checks two statistics against direct counts over
 * the log, then times each statistic through the real server for the company and for agent1 (p50 /
 * p95 / p99 of sequential calls) and ReportUse (a batch of 10 events) for parents.
 *
 *   createdb -h 127.0.0.1 -U postgres campus_bench_appuse
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/campus_bench_appuse npm run seed:scale -- --students 100000
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/campus_bench_appuse npm run bench:appuse -- --events 2000000
 */
import { APP_PATHS } from '@campus/contract';
import { createDatabase } from '@campus/server/src/db/client.js';
import { loadEnv } from '@campus/server/src/env.js';
import { countAppUsers, rollUpAllAppUse, rollUpAppUse } from '@campus/server/src/parents/app-use.js';
import { hashPassword, md5Hex } from '@campus/server/src/platform/passwords.js';
import { parseArgs } from 'node:util';
import os from 'node:os';
import pg from 'pg';
import { callJson, loginAs, startBenchServer, type Envelope } from './bench-server.js';
import { callReport, fmt, printReportTimes, type ReportScenario } from './report-scenarios.js';
import { percentile } from './stats.js';

const { values: options } = parseArgs({ options: { samples: { type: 'string', default: '100' }, events: { type: 'string', default: '2000000' }, days: { type: 'string', default: '60' } } });
const samples = Number(options.samples);
const wanted = Number(options.events);
const days = Number(options.days);
const url = process.env.DATABASE_URL;
if (!url) throw new Error('bench:appuse runs on PostgreSQL: set DATABASE_URL (see the header of bench/app-use.ts)');

const log = (message: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${message}`);
const FUNCTIONS = ['attendance', 'inbox', 'recognitions', 'services', 'album', 'payments', 'mall', 'liveClass', 'help'];
const BENCH_PASSWORD = 'Bench#2026';

const shanghaiDay = (msAgo: number) => new Date(Date.now() - msAgo + 8 * 3_600_000).toISOString().slice(0, 10);
const today = shanghaiDay(0);
const monthAgo = shanghaiDay(29 * 86_400_000);
const monthStart = `${today.slice(0, 7)}-01`;

const SCENARIOS: ReportScenario[] = (['admin', 'agent1'] as const).flatMap((as) => [
  { id: `UA-${as}`, as, what: 'uaStatistics, 30 days by OS and version (Search)', method: 'POST' as const, path: '/api/UaStatistics/Search', body: { dayFrom: monthAgo, dayTo: today } },
  { id: `UA-chart-${as}`, as, what: 'uaStatistics chart (GetSummary)', method: 'GET' as const, path: `/api/UaStatistics/GetSummary?groupBy=appVersion,osType&dayFrom=${monthAgo}&dayTo=${today}` },
  { id: `ACT-day-${as}`, as, what: 'userActTable, DAU over 30 days (GetSummary)', method: 'GET' as const, path: `/api/UserActivity/GetSummary?grain=day&dayFrom=${monthAgo}&dayTo=${today}` },
  { id: `ACT-month-${as}`, as, what: 'userActTable, MAU (Search)', method: 'POST' as const, path: '/api/UserActivity/Search', body: { grain: 'month', dayFrom: monthAgo, dayTo: today } },
  { id: `STYLE-${as}`, as, what: 'userStyleStatistics, this month (Search)', method: 'POST' as const, path: '/api/UserComposition/Search', body: { dayFrom: monthStart, dayTo: today } },
  { id: `STYLE-chart-${as}`, as, what: 'userStyleStatistics chart by relation (GetSummary)', method: 'GET' as const, path: `/api/UserComposition/GetSummary?groupBy=relation&dayFrom=${monthStart}&dayTo=${today}` },
  { id: `FUN-${as}`, as, what: 'funStatistics (FrequentStatistics), 30 days (GetSummary)', method: 'GET' as const, path: `/api/FrequentStatistics/GetSummary?dayFrom=${monthAgo}&dayTo=${today}` },
  { id: `TREND-${as}`, as, what: 'functionalTrends by day and function, 30 days (GetSummary)', method: 'GET' as const, path: `/api/FunctionTrends/GetSummary?grain=day&dayFrom=${monthAgo}&dayTo=${today}` },
  { id: `USERS-${as}`, as, what: 'userStatistics per school (Search)', method: 'POST' as const, path: '/api/UserStatistics/Search', body: {} },
  { id: `USERS-chart-${as}`, as, what: 'userStatistics chart by city (GetSummary)', method: 'GET' as const, path: '/api/UserStatistics/GetSummary?groupBy=city' },
]);

/** Generates the log in id order by time (as the app's reports arrive), in batches of 500,000. */
async function generateLog(client: pg.Client, count: number): Promise<void> {
  const [{ lo, n }] = (await client.query<{ lo: number; n: number }>('select min(id)::int as lo, count(*)::int as n from parents')).rows as [{ lo: number; n: number }];
  // A third of the parents use the app; (i × stride) mod pool scatters neighbours over the pool.
  const pool = Math.floor(n / 3);
  const stride = Math.round(pool * 0.6180339887) | 1;
  const spanSeconds = days * 86_400;
  const codes = `array[${FUNCTIONS.map((code) => `'${code}'`).join(', ')}]`;
  for (let from = 1; from <= count; from += 500_000) {
    const to = Math.min(count, from + 499_999);
    // One event in four opens a session; functions are skewed towards the first (attendance, inbox).
    await client.query(`insert into app_use_events (occurred_at, parent_id, school_id, kind, function_code, os_type, os_version, app_type, app_version, device_model, session_id, created_at)
      select t.at, p.id, p.school_id, case when g % 4 = 0 then 1 else 2 end,
        case when g % 4 = 0 then null else (${codes})[1 + floor(((g * 7919) % 1000) / 1000.0 * ((g * 7919) % 1000) / 1000.0 * ${FUNCTIONS.length})::int] end,
        case when g % 4 = 0 then 1 + (p.id % 5 < 2)::int end, case when g % 4 = 0 then (array['12', '13', '14', '17.4'])[1 + p.id % 4] end,
        case when g % 4 = 0 then 1 end, case when g % 4 = 0 then (array['3.0.0', '3.1.0', '3.2.0'])[1 + least(2, (g * 3 / ${count})::int + (p.id % 2))] end,
        case when g % 4 = 0 then (array['HUAWEI Mate 60', 'Xiaomi 14', 'iPhone 15', 'OPPO Reno11'])[1 + p.id % 4] end,
        p.id, t.at
      from generate_series(${from}::bigint, ${to}::bigint) g
      cross join lateral (select now() - make_interval(secs => ${spanSeconds} - (g::double precision / ${count}) * ${spanSeconds}) as at) t
      join parents p on p.id = ${lo} + (g * ${stride}) % ${pool}`);
    log(`  app_use_events: ${to.toLocaleString('en')} of ${count.toLocaleString('en')}`);
  }
  await client.query('vacuum analyze app_use_events');
}

/** Parents signed in through the channel (an app password set as support would), one session each. */
async function parentTokens(client: pg.Client, base: string, count: number): Promise<string[]> {
  const found = (await client.query<{ id: number; phone: string }>(`select p.id, p.phone_num as phone from parents p where p.enabled order by p.id limit ${count}`)).rows;
  const hash = await hashPassword(md5Hex(BENCH_PASSWORD));
  const tokens: string[] = [];
  for (const row of found) {
    await client.query('update parents set password_hash = $1 where id = $2', [hash, row.id]);
    const signedIn = await callJson<Envelope<{ token: string }>>(base, APP_PATHS.signIn, { method: 'POST', body: { phoneNum: row.phone, password: md5Hex(BENCH_PASSWORD) } });
    if (signedIn.body.code !== 200) throw new Error(`sign-in of ${row.phone}: ${signedIn.body.code} ${signedIn.body.message}`);
    tokens.push(signedIn.body.data.token);
  }
  return tokens;
}

/** Times ReportUse, each call a batch of 10 events under a fresh key, rotating sessions to stay under the rate limit. */
async function timeReportUse(base: string, tokens: string[]): Promise<void> {
  const times: number[] = [];
  for (let i = 0; i < samples + 5; i += 1) {
    const now = Date.now();
    const events = [
      { kind: 'session', at: new Date(now - 60_000).toISOString(), os: 'android', osVersion: '14', appType: 'parent', appVersion: '3.2.0', deviceModel: 'Xiaomi 14' },
      ...FUNCTIONS.map((code, n) => ({ kind: 'function', at: new Date(now - 50_000 + n * 1000).toISOString(), code })),
    ];
    const t0 = performance.now();
    const answer = await new Promise<{ status: number; body: Envelope<unknown> }>((resolve, reject) => {
      // callJson sends no Idempotency-Key: this call needs one, so it goes through fetch.
      fetch(`${base}${APP_PATHS.reportUse}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens[i % tokens.length]}`, 'content-type': 'application/json', 'idempotency-key': `bench-${now}-${i}` },
        body: JSON.stringify({ events }),
      })
        .then(async (response) => resolve({ status: response.status, body: (await response.json()) as Envelope<unknown> }))
        .catch(reject);
    });
    const ms = performance.now() - t0;
    if (answer.body.code !== 200) throw new Error(`ReportUse: HTTP ${answer.status} ${answer.body.code} ${answer.body.message}`);
    if (i >= 5) times.push(ms);
  }
  times.sort((a, b) => a - b);
  const p95 = percentile(times, 95);
  console.log(`| USE | parent | ReportUse, a batch of 10 events | — | ${fmt(percentile(times, 50))} | ${fmt(p95)} | ${fmt(percentile(times, 99))} | ${p95 <= 200 ? 'ok' : 'OVER'} |`);
}

async function main(): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const [{ n: existing }] = (await client.query<{ n: number }>('select count(*)::int as n from app_use_events')).rows as [{ n: number }];
    if (existing < wanted) {
      log(`generating ${(wanted - existing).toLocaleString('en')} app-use events over ${days} days`);
      await generateLog(client, wanted - existing);
    }
    // The job's own rollup, from its watermark: everything not yet rolled up (a second run has nothing left).
    const handle = await createDatabase(loadEnv({ ...process.env, LOG_LEVEL: 'warn' }));
    try {
      const t0 = performance.now();
      const events = await rollUpAllAppUse(handle.db, new Date(Date.now() + 60_000), 200_000);
      const rolledMs = performance.now() - t0;
      if (events > 0) log(`rolled up ${events.toLocaleString('en')} events in ${(rolledMs / 1000).toFixed(1)} s (${Math.round(events / (rolledMs / 1000)).toLocaleString('en')} events/s)`);
      // The job's steady state: one minute of reports (2,000 events of parents all over) after the backlog.
      await client.query(`insert into app_use_events (occurred_at, parent_id, school_id, kind, function_code, session_id, created_at)
        select now() - interval '30 seconds', p.id, p.school_id, 2, 'attendance', p.id, now() - interval '30 seconds'
        from parents p where p.id % 50 = 0 order by p.id limit 2000`);
      const t2 = performance.now();
      const minute = await rollUpAppUse(handle.db, new Date(Date.now() + 60_000));
      log(`one run of the job after a minute of reports: ${minute.events} events, ${minute.days} (school, day)s touched, in ${fmt(performance.now() - t2)} ms`);
      const t1 = performance.now();
      const schools = await countAppUsers(handle.db, new Date());
      log(`counted the parents of ${schools} schools in ${fmt(performance.now() - t1)} ms`);
    } finally {
      await handle.close();
    }
    await client.query('vacuum analyze app_use_parent_days, app_use_activity, app_use_composition, app_use_version_days, app_use_function_days, app_use_agent_version_days, app_use_agent_function_days, app_user_school_counts');
    const sizes = await client.query<{ t: string; n: string; size: string }>(
      `select c.relname as t, c.reltuples::bigint::text as n, pg_size_pretty(pg_total_relation_size(c.oid)) as size from pg_class c
       where c.relname in ('app_use_events', 'app_use_parent_days', 'app_use_activity', 'app_use_composition', 'app_use_version_days', 'app_use_function_days', 'app_use_agent_version_days', 'app_use_agent_function_days', 'app_user_school_counts', 'parents') order by c.relname`,
    );
    for (const s of sizes.rows) log(`${s.t.padEnd(24)} ${Number(s.n).toLocaleString('en').padStart(11)} rows  ${s.size}`);

    for (const name of ['SHED_EVENT_LOOP_DELAY_MS', 'SHED_EVENT_LOOP_UTILIZATION', 'SHED_DB_QUEUE', 'SHED_DB_WAIT_MS']) process.env[name] ??= '0';
    const server = await startBenchServer(process.env.DATA_DIR ?? './data-bench');
    try {
      const tokens = { admin: await loginAs(server.base, 'admin'), agent1: await loginAs(server.base, 'agent1') };
      // The figures first: uses over 30 days and this month's active parents, agent1's, against the log.
      const schoolsOf = `select id from schools where agent_id = (select id from users where login_name = 'agent1')`;
      const day = `(occurred_at at time zone 'Asia/Shanghai')::date`;
      const uses = (await callReport(server.base, tokens.agent1, SCENARIOS.find((s) => s.id === 'FUN-agent1')!)).totals!.uses;
      const [direct] = (await client.query<{ uses: number; active: number }>(`select
          (select count(*) from app_use_events where kind = 2 and school_id in (${schoolsOf}) and ${day} between date '${monthAgo}' and date '${today}')::int as uses,
          (select count(distinct parent_id) from app_use_events where school_id in (${schoolsOf}) and ${day} >= date '${monthStart}')::int as active`)).rows;
      const activeAnswer = await callReport(server.base, tokens.agent1, { id: 'check', as: 'agent1', what: '', method: 'GET', path: `/api/UserActivity/GetSummary?grain=month&dayFrom=${monthStart}&dayTo=${today}` });
      const same = uses === direct!.uses && activeAnswer.totals!.active === direct!.active;
      log(`check agent1: uses ${uses} = ${direct!.uses}, this month's active parents ${activeAnswer.totals!.active} = ${direct!.active}: ${same ? 'ok' : 'MISMATCH'}`);
      if (!same) throw new Error('an app-use statistic disagrees with the log it counts');

      await printReportTimes(server.base, tokens, SCENARIOS, samples, `${wanted.toLocaleString('en')} app-use events; `);
      await timeReportUse(server.base, await parentTokens(client, server.base, 8));
    } finally {
      await server.stop();
    }
    // What the rollups replace: this month's active parents of the company counted from the log (p50 of 3).
    const times: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const t0 = performance.now();
      await client.query(`select count(distinct parent_id) from app_use_events where (occurred_at at time zone 'Asia/Shanghai')::date >= date '${monthStart}'`);
      times.push(performance.now() - t0);
    }
    console.log(`\nWhat the rollups replace — this month's distinct active parents counted from the log (p50 of 3): ${fmt(times.sort((a, b) => a - b)[1]!)} ms`);
    console.log(`load average after: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  } finally {
    await client.end();
  }
}

main().catch((error: unknown) => {
  console.error(`bench:appuse failed: ${error instanceof Error ? error.stack : String(error)}`);
  process.exit(1);
});
