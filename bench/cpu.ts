/**
 * CPU per request, for the server (Node) and the database (PostgreSQL backends) separately:
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/campus_bench npm run bench:cpu
 *
 * Options: --requests 2000 (sequential requests per scenario), --warmup 200, --only search,auth,
 * --clients 10 and --load-requests 4000 (the Search scenario again at that many concurrent clients:
 * requests/s and p95 under load).
 *
 * Node: utime + stime of the server process (bench/server.ts → buildApp) from /proc/<pid>/stat,
 * before and after a fixed number of requests. PostgreSQL: the same figures summed over the
 * database's client backends (pg_stat_activity, this bench's own connection left out), read from
 * /proc/<pid>/stat — the backends' real CPU, planning and protocol included, not
 * pg_stat_statements' execution time. CPU time does not count time spent waiting for a core, so
 * these figures hold on a busy machine where latency does not. Needs the database seed-scale.ts
 * fills (1,000,000 students for the figures in docs/performance.md); PGlite runs inside the server,
 * so there the Node figure is the whole cost. Prints figures; asserts nothing.
 */
import { API_PATHS } from '@campus/contract';
import { loadEnv } from '@campus/server/src/env.js';
import { cpuMsOf } from './proc-cpu.js';
import os from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { loginAs, startBenchServer, type Envelope } from './bench-server.js';
import { percentile } from './stats.js';

const { values: args } = parseArgs({
  options: {
    requests: { type: 'string', default: '2000' },
    warmup: { type: 'string', default: '200' },
    only: { type: 'string' },
    clients: { type: 'string', default: '10' },
    'load-requests': { type: 'string', default: '4000' },
  },
});
const REQUESTS = Number(args.requests);
const WARMUP = Number(args.warmup);
const CLIENTS = Number(args.clients);
const LOAD_REQUESTS = Number(args['load-requests']);

const env = loadEnv({ ...process.env, DATA_DIR: process.env.DATA_DIR ?? './data-bench' });

interface Scenario {
  id: string;
  label: string;
  as: 'agent1' | 'admin';
  /** One request; answers its status code. */
  call(base: string, token: string): Promise<void>;
}

async function expectOk(response: Response, id: string): Promise<void> {
  const answer = (await response.json()) as Envelope<unknown>;
  if (answer.code !== 200) throw new Error(`${id}: HTTP ${response.status} code ${answer.code} ${answer.message}`);
}

const post = (id: string, path: string, body: unknown) => async (base: string, token: string) =>
  expectOk(await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) }), id);
const get = (id: string, path: string) => async (base: string, token: string) => expectOk(await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } }), id);

function scenarios(studentId: number): Scenario[] {
  return [
    { id: 'search', label: "Student Search, name prefix '王' in agent1's scope (500 schools), page 1 × 20", as: 'agent1', call: post('search', '/api/Student/Search', { name: '王' }) },
    { id: 'page2', label: "the same, page 2 (a page turn)", as: 'agent1', call: post('page2', '/api/Student/Search', { name: '王', pageIndex: 2 }) },
    { id: 'auth', label: 'minimal authenticated call (GET User/GetVisibilityProbes)', as: 'agent1', call: get('auth', API_PATHS.visibilityProbes) },
    { id: 'get', label: 'Student Get of one row in scope', as: 'agent1', call: get('get', `/api/Student/Get?id=${studentId}`) },
    { id: 'log', label: 'OperationLog Search (log family, key paging), page 1 × 20, as admin', as: 'admin', call: post('log', '/api/OperationLog/Search', { pageSize: 20 }) },
  ];
}

interface Backends {
  pids(): Promise<number[]>;
  close(): Promise<void>;
}

async function openBackends(): Promise<Backends | undefined> {
  if (!env.DATABASE_URL) return undefined;
  const client = new pg.Client({ connectionString: env.DATABASE_URL });
  await client.connect();
  return {
    async pids() {
      const result = await client.query<{ pid: number }>(
        `select pid from pg_stat_activity where datname = current_database() and backend_type = 'client backend' and pid <> pg_backend_pid()`,
      );
      return result.rows.map((row) => row.pid);
    },
    close: () => client.end(),
  };
}

/** CPU ms so far of every backend seen, by pid; a backend that joined since it was last read starts at 0. */
async function backendCpu(backends: Backends | undefined, seen: Map<number, number>): Promise<Map<number, number>> {
  if (backends) for (const pid of await backends.pids()) if (!seen.has(pid)) seen.set(pid, 0);
  return new Map([...seen.keys()].map((pid) => [pid, cpuMsOf(pid)]));
}

async function runMany(count: number, clients: number, call: () => Promise<void>): Promise<number[]> {
  const times: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < count) {
        next += 1;
        const t0 = performance.now();
        await call();
        times.push(performance.now() - t0);
      }
    }),
  );
  return times.sort((a, b) => a - b);
}

const f2 = (value: number) => value.toFixed(2);

interface Measured {
  node: number;
  db: number;
  p50: number;
  p95: number;
  rps: number;
}

async function measure(serverPid: number, backends: Backends | undefined, count: number, clients: number, call: () => Promise<void>): Promise<Measured> {
  const seen = new Map<number, number>();
  const before = await backendCpu(backends, seen);
  const node0 = cpuMsOf(serverPid);
  const t0 = performance.now();
  const times = await runMany(count, clients, call);
  const seconds = (performance.now() - t0) / 1000;
  const node1 = cpuMsOf(serverPid);
  const after = await backendCpu(backends, seen);
  let db = 0;
  // A backend gone by the end (the pool closes idle connections) was idle: it is left out.
  for (const [pid, ms] of after) if (ms > 0) db += ms - (before.get(pid) ?? 0);
  return { node: (node1 - node0) / count, db: db / count, p50: percentile(times, 50), p95: percentile(times, 95), rps: count / seconds };
}

async function main(): Promise<void> {
  const kind = env.DATABASE_URL ? 'PostgreSQL' : 'PGlite (inside the server process)';
  console.log(`bench:cpu on ${kind}; ${os.cpus().length} CPUs, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  // Saturating the server is the point of the loaded run: its event-loop utilization passes the
  // shedding limit (90 %) by design, so that check is off here (the others stay on).
  process.env.SHED_EVENT_LOOP_UTILIZATION ??= '0';
  const server = await startBenchServer(env.DATA_DIR);
  const backends = await openBackends();
  try {
    const tokens = { agent1: await loginAs(server.base, 'agent1'), admin: await loginAs(server.base, 'admin') };
    const search = await fetch(`${server.base}/api/Student/Search`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens.agent1}` }, body: '{}' });
    const first = ((await search.json()) as Envelope<{ items: { id: number }[] }>).data.items[0];
    if (!first) throw new Error('agent1 sees no student: run npm run seed:scale first');
    const only = args.only?.split(',').map((s) => s.trim());
    const list = scenarios(first.id).filter((s) => !only || only.includes(s.id));
    console.log(`${REQUESTS} sequential requests per scenario after ${WARMUP} to warm up; ms of CPU per request\n`);
    console.log('| scenario | Node ms | PostgreSQL ms | total ms | p50 ms | p95 ms | what |');
    console.log('|---|---|---|---|---|---|---|');
    for (const scenario of list) {
      const call = () => scenario.call(server.base, tokens[scenario.as]);
      await runMany(WARMUP, 1, call);
      const m = await measure(server.pid, backends, REQUESTS, 1, call);
      console.log(`| ${scenario.id} | ${f2(m.node)} | ${f2(m.db)} | ${f2(m.node + m.db)} | ${f2(m.p50)} | ${f2(m.p95)} | ${scenario.label} |`);
    }
    const loaded = list.find((s) => s.id === 'search');
    if (loaded && LOAD_REQUESTS > 0) {
      const call = () => loaded.call(server.base, tokens[loaded.as]);
      await runMany(WARMUP, CLIENTS, call);
      const m = await measure(server.pid, backends, LOAD_REQUESTS, CLIENTS, call);
      console.log(`\nsearch at ${CLIENTS} clients, ${LOAD_REQUESTS} requests: ${m.rps.toFixed(0)} requests/s, p50 ${f2(m.p50)} ms, p95 ${f2(m.p95)} ms; CPU per request Node ${f2(m.node)} + PostgreSQL ${f2(m.db)} = ${f2(m.node + m.db)} ms`);
    }
    console.log(`\nload average after: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  } finally {
    await backends?.close();
    await server.stop();
  }
}

await main();
