/**
 * Load: clients against the real server (bench/server.ts in a child process), in three scenarios,
 * each for a fixed time, each printed on its own:
 *
 * - `crowd`: many clients at once mixing the calls the console makes most — Student Search, Get,
 *   School Options, a small Student Export and Student Update (each client edits a student of its
 *   own, so versions never clash). The server sheds (503) instead of queueing.
 * - `greedy`: one client sending Student Searches back to back with two in flight — a script, a
 *   scanner, an impatient integration. It waits for nobody, so nothing may be shed.
 * - `greedy+busy`: the same while another process keeps one core busy (a neighbour on the machine).
 *
 * Prints errors, 503s (load shed), and p50/p99/max client-side and server-side (the server's
 * Server-Timing `app` duration, its own time from request to answer), per call and overall.
 *
 *   DATA_DIR=/tmp/campus-load npm run seed:scale -- --students 100000 && DATA_DIR=/tmp/campus-load npm run bench:load
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/campus_bench_load npm run bench:load
 *
 * Options: --clients 50 (the crowd), --seconds 60 (each scenario), --scenarios crowd,greedy,greedy+busy.
 * A shed client waits Retry-After (with jitter) before its next call, as the web client does. Targets:
 * the crowd on PostgreSQL 0 errors and p99 ≤ 500 ms, on the embedded database no request over 5 s (the
 * server sheds instead); the greedy client 0 errors and 0 shed. Exits 1 when one is missed.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loginAs, startBenchServer, type Envelope } from './bench-server.js';
import { percentile } from './stats.js';

const { values: args } = parseArgs({
  options: { clients: { type: 'string', default: '50' }, seconds: { type: 'string', default: '60' }, scenarios: { type: 'string', default: 'crowd,greedy,greedy+busy' } },
});
const CLIENTS = Number(args.clients);
const SECONDS = Number(args.seconds);
const SCENARIOS = ['crowd', 'greedy', 'greedy+busy'] as const;
type Scenario = (typeof SCENARIOS)[number];
const chosen = args.scenarios.split(',').map((name) => name.trim());
for (const name of chosen) if (!SCENARIOS.includes(name as Scenario)) throw new Error(`--scenarios: unknown scenario ${name} (${SCENARIOS.join(', ')})`);
const kind = process.env.DATABASE_URL ? 'postgres' : 'pglite';
const dataDir = process.env.DATA_DIR ?? './data-bench';

type CallKind = 'search' | 'get' | 'options' | 'export' | 'update';
/** How often each call is made, out of 100. */
const MIX: [CallKind, number][] = [
  ['search', 40],
  ['get', 20],
  ['options', 15],
  ['export', 5],
  ['update', 20],
];

interface Sample {
  kind: CallKind;
  status: number;
  clientMs: number;
  serverMs: number | null;
  /** Of serverMs, the time its statements waited for a database connection (Server-Timing db-wait). */
  dbWaitMs: number | null;
}

/** The samples and errors of the scenario running now. */
let samples: Sample[] = [];
let errors: string[] = [];
const SURNAMES = ['王', '李', '张', '刘', '陈', '杨', '赵', '黄'];

const pick = <T>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)]!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

function chooseKind(): CallKind {
  let roll = Math.random() * 100;
  for (const [kind, weight] of MIX) {
    roll -= weight;
    if (roll < 0) return kind;
  }
  return 'search';
}

/** The server's own time of the answer and its database wait, from `Server-Timing: app;dur=…, db-wait;dur=…`. */
function serverTimes(response: Response): { serverMs: number | null; dbWaitMs: number | null } {
  const header = response.headers.get('server-timing') ?? '';
  const app = /app;dur=([\d.]+)/.exec(header);
  const wait = /db-wait;dur=([\d.]+)/.exec(header);
  return { serverMs: app ? Number(app[1]) : null, dbWaitMs: wait ? Number(wait[1]) : null };
}

interface Client {
  base: string;
  token: string;
  schools: number[];
  studentIds: number[];
  /** The student this client edits, with the version it last wrote. */
  own: { id: number; version: number; name: string };
}

/** Sends one call, records its sample, answers the parsed JSON (null for a file or a failure). */
async function call(client: Client, kind: CallKind, path: string, init: RequestInit = {}): Promise<{ status: number; body: Envelope<unknown> | null; retryAfterMs: number }> {
  const started = performance.now();
  const headers = { authorization: `Bearer ${client.token}`, 'accept-language': 'en', ...(init.body ? { 'content-type': 'application/json' } : {}) };
  try {
    const response = await fetch(`${client.base}${path}`, { ...init, headers });
    const isJson = (response.headers.get('content-type') ?? '').includes('application/json');
    const body = isJson ? ((await response.json()) as Envelope<unknown>) : (await response.arrayBuffer(), null);
    samples.push({ kind, status: response.status, clientMs: performance.now() - started, ...serverTimes(response) });
    if (response.status !== 200 && response.status !== 503) errors.push(`${kind} ${path}: HTTP ${response.status} ${body?.message ?? ''}`);
    return { status: response.status, body, retryAfterMs: Number(response.headers.get('retry-after') ?? 0) * 1000 };
  } catch (error) {
    samples.push({ kind, status: 0, clientMs: performance.now() - started, serverMs: null, dbWaitMs: null });
    errors.push(`${kind} ${path}: ${(error as Error).message}`);
    return { status: 0, body: null, retryAfterMs: 0 };
  }
}

async function oneCall(client: Client, kind: CallKind): Promise<number> {
  const post = (path: string, body: unknown) => call(client, kind, path, { method: 'POST', body: JSON.stringify(body) });
  let answer;
  switch (kind) {
    case 'search': {
      const filter = pick([{ schoolId: pick(client.schools) }, { name: pick(SURNAMES) }, { state: 2 }, {}]);
      answer = await post('/api/Student/Search', { pageIndex: 1, pageSize: 20, ...filter });
      const items = (answer.body?.data as { items?: { id: number }[] } | undefined)?.items ?? [];
      for (const item of items.slice(0, 3)) client.studentIds.push(item.id);
      if (client.studentIds.length > 200) client.studentIds.splice(0, 100);
      break;
    }
    case 'get':
      answer = await call(client, kind, `/api/Student/Get?id=${pick(client.studentIds)}`);
      break;
    case 'options':
      answer = await call(client, kind, `/api/School/Options${Math.random() < 0.5 ? '' : `?keyword=${encodeURIComponent(pick(['学校', '一', '小学']))}`}`);
      break;
    case 'export':
      answer = await call(client, kind, `/api/Student/Export?schoolId=${pick(client.schools)}&maxCount=200`);
      break;
    case 'update': {
      const { own } = client;
      const name = own.name.endsWith('*') ? own.name.slice(0, -1) : `${own.name}*`;
      answer = await post('/api/Student/Update', { id: own.id, version: own.version, name });
      const written = answer.body?.data as { version?: number } | undefined;
      if (answer.status === 200 && written?.version !== undefined) Object.assign(own, { version: written.version, name });
      break;
    }
  }
  return answer.status === 503 ? answer.retryAfterMs : 0;
}

async function runClient(client: Client, until: number, choose: () => CallKind = chooseKind): Promise<void> {
  while (performance.now() < until) {
    const waitMs = await oneCall(client, choose());
    // Shed: come back after Retry-After, spread by jitter so the shed clients do not return together.
    if (waitMs > 0) await sleep(waitMs * (0.5 + Math.random()));
  }
}

const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(value < 10 ? 1 : 0) : '–');

function line(label: string, list: Sample[]): string {
  const served = list.filter((s) => s.status === 200);
  const client = served.map((s) => s.clientMs).sort((a, b) => a - b);
  const server = served.flatMap((s) => (s.serverMs === null ? [] : [s.serverMs])).sort((a, b) => a - b);
  const dbWait = served.flatMap((s) => (s.dbWaitMs === null ? [] : [s.dbWaitMs])).sort((a, b) => a - b);
  const shed = list.filter((s) => s.status === 503);
  const failed = list.filter((s) => s.status !== 200 && s.status !== 503);
  return [
    label.padEnd(8),
    String(list.length).padStart(7),
    String(failed.length).padStart(7),
    String(shed.length).padStart(6),
    ...[50, 99].map((p) => ms(percentile(client, p)).padStart(8)),
    ms(client.at(-1) ?? NaN).padStart(8),
    ...[50, 99].map((p) => ms(percentile(server, p)).padStart(8)),
    ms(server.at(-1) ?? NaN).padStart(8),
    ...[50, 99].map((p) => ms(percentile(dbWait, p)).padStart(8)),
  ].join(' ');
}

/** Keeps one core busy in another process, as a neighbour on the machine does, until stopped. */
function burnOneCore(): { stop(): void } {
  const burner = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
  return { stop: () => burner.kill('SIGKILL') };
}

/** Prints one scenario's table and answers the targets it missed. */
function report(scenario: Scenario, elapsed: number, loadAfter: string): string[] {
  console.log(`\n${scenario}: ${samples.length} calls in ${elapsed.toFixed(1)} s (${(samples.length / elapsed).toFixed(0)}/s); load average after: ${loadAfter}`);
  console.log('times of served calls (HTTP 200), ms; srv = the server\'s own time (Server-Timing app), wait = of which waiting for a database connection');
  console.log(`${'call'.padEnd(8)} ${'calls'.padStart(7)} ${'errors'.padStart(7)} ${'503s'.padStart(6)} ${'cli p50'.padStart(8)} ${'cli p99'.padStart(8)} ${'cli max'.padStart(8)} ${'srv p50'.padStart(8)} ${'srv p99'.padStart(8)} ${'srv max'.padStart(8)} ${'wait p50'.padStart(8)} ${'wait p99'.padStart(8)}`);
  for (const [callKind] of MIX) if (samples.some((s) => s.kind === callKind)) console.log(line(callKind, samples.filter((s) => s.kind === callKind)));
  console.log(line('all', samples));
  const shed = samples.filter((s) => s.status === 503).map((s) => s.clientMs).sort((a, b) => a - b);
  if (shed.length > 0) console.log(`503 answers came back in p50 ${ms(percentile(shed, 50))} ms, max ${ms(shed.at(-1)!)} ms`);
  const distinct = [...new Set(errors)];
  if (distinct.length > 0) console.log(`errors (${errors.length}, ${distinct.length} distinct):\n  ${distinct.slice(0, 10).join('\n  ')}`);

  const failed = errors.length > 0 && `${scenario}: ${errors.length} errors`;
  if (scenario !== 'crowd') return [failed, shed.length > 0 && `${scenario}: ${shed.length} calls shed`].filter((missed): missed is string => Boolean(missed));
  const longest = Math.max(...samples.map((s) => s.clientMs));
  const served = samples.filter((s) => s.status === 200).map((s) => s.clientMs).sort((a, b) => a - b);
  const p99 = percentile(served, 99);
  return (kind === 'postgres' ? [failed, p99 > 500 && `crowd: p99 ${ms(p99)} ms > 500 ms`] : [failed, longest > 5000 && `crowd: a request took ${ms(longest)} ms > 5 s`]).filter(
    (missed): missed is string => Boolean(missed),
  );
}

async function main(): Promise<void> {
  console.log(`bench:load on ${kind}${kind === 'pglite' ? ` (${dataDir})` : ''}: ${chosen.join(', ')}, ${SECONDS} s each (crowd: ${CLIENTS} clients); load average before: ${loadAverage()}`);
  const server = await startBenchServer(dataDir);
  try {
    const tokens = { agent1: await loginAs(server.base, 'agent1'), admin: await loginAs(server.base, 'admin') };
    const auth = { authorization: `Bearer ${tokens.agent1}` };
    const options = (await (await fetch(`${server.base}/api/School/Options`, { headers: auth })).json()) as Envelope<{ value: number }[]>;
    const schools = options.data.map((option) => Number(option.value));
    const firstPage = (await (
      await fetch(`${server.base}/api/Student/Search`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ pageIndex: 1, pageSize: CLIENTS }) })
    ).json()) as Envelope<{ items: { id: number; name: string; version: number }[] }>;
    const students = firstPage.data.items;
    if (students.length < CLIENTS) throw new Error(`need ${CLIENTS} students in agent1's scope, found ${students.length}: run seed:scale first`);
    // Half the clients are agent1 (scoped searches), half admin (everything): both paths are loaded.
    const clients: Client[] = students.map((student, index) => ({
      base: server.base,
      token: index % 2 === 0 ? tokens.agent1 : tokens.admin,
      schools,
      studentIds: students.map((s) => s.id),
      own: { id: student.id, version: student.version, name: student.name },
    }));

    const missed: string[] = [];
    for (const scenario of chosen as Scenario[]) {
      samples = [];
      errors = [];
      const burner = scenario === 'greedy+busy' ? burnOneCore() : undefined;
      try {
        const started = performance.now();
        const until = started + SECONDS * 1000;
        // The greedy client is one agent with two Searches in flight, each sent as soon as the last answered.
        if (scenario === 'crowd') await Promise.all(clients.map((client) => runClient(client, until)));
        else await Promise.all([runClient(clients[0]!, until, () => 'search'), runClient(clients[0]!, until, () => 'search')]);
        missed.push(...report(scenario, (performance.now() - started) / 1000, loadAverage()));
      } finally {
        burner?.stop();
      }
    }
    console.log(missed.length === 0 ? '\ntargets met' : `\ntargets missed: ${missed.join(', ')}`);
    if (missed.length > 0) process.exitCode = 1;
  } finally {
    await server.stop();
  }
}

await main();
