/**
 * How close the API comes to the database's own ceiling (issue 32: API/DB ≥ 0.6):
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/campus_bench npm run bench:ceiling
 *
 * Options: --seconds 15 (each phase, in all), --rounds 3, --clients 10, --name 王, --explain (prints the
 * statement and its EXPLAIN ANALYZE under the server's session options, then stops).
 *
 * 1. DB: the engine's own page statement for agent1's Search for the name part (page 1 of 20, the
 *    statement a repeated Search sends: its total is kept), captured from `searchPage` as the pg
 *    driver is handed it (named where the engine names it: a common part's walk of the newest ids),
 *    run through the pg driver alone by `--clients` connections, each with the server's session
 *    options (POSTGRES_SESSION_OPTIONS), back to back for `--seconds`.
 * 2. API: the real server (bench/server.ts) answering POST /api/Student/Search with the same body
 *    as agent1, loaded with `--clients` keep-alive connections for `--seconds` by wrk where it is
 *    installed (Debian's `wrk`: a C load generator), else by autocannon (`--generator` picks one).
 *    On two cores the generator shares the machine with the server and PostgreSQL, so its own CPU
 *    per request is printed too: autocannon spends about as much per call as the server's Node.
 *
 * Both phases run in the same minute, taking turns: `--rounds` slices of each, DB then API, so that a
 * shared machine's slower spell lowers both rather than one. Beside each rate, the CPU per request of
 * the server process (Node), of the database's client backends (PostgreSQL) and of each phase's
 * client, read from /proc, and the load average; API/DB is of the rates over all rounds. Prints
 * figures; asserts nothing.
 */
import { Student, searchSchemaOf } from '@campus/contract';
import { POSTGRES_SESSION_OPTIONS, type Database } from '@campus/server/src/db/client.js';
import * as schema from '@campus/server/src/db/schema/index.js';
import { loadEnv } from '@campus/server/src/env.js';
import type { AuthUser } from '@campus/server/src/platform/auth.js';
import { getVisibilityProbes } from '@campus/server/src/platform/probes.js';
import { resolveSchoolScope } from '@campus/server/src/platform/scope.js';
import type { EngineContext, Row } from '@campus/server/src/resources/engine/context.js';
import { searchPage } from '@campus/server/src/resources/engine/search-counts.js';
import { searchAskOf } from '@campus/server/src/resources/engine/search-statement.js';
import { recordSentStatements } from '@campus/server/test/helpers/sent-statements.js';
import autocannon from 'autocannon';
import { eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { childrenCpuMs, cpuMsOf } from './proc-cpu.js';
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { loginAs, startBenchServer } from './bench-server.js';
import { BENCH_SERVICES } from './engine-context.js';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '15' },
    rounds: { type: 'string', default: '3' },
    clients: { type: 'string', default: '10' },
    name: { type: 'string', default: '王' },
    explain: { type: 'boolean', default: false },
    generator: { type: 'string' },
  },
});
const ROUNDS = Number(args.rounds);
const SLICE_SECONDS = Number(args.seconds) / ROUNDS;
const CLIENTS = Number(args.clients);
const BODY = { name: args.name };
const GENERATOR = args.generator ?? (hasWrk() ? 'wrk' : 'autocannon');
if (GENERATOR !== 'wrk' && GENERATOR !== 'autocannon') throw new Error(`--generator is wrk or autocannon, not ${GENERATOR}`);

function hasWrk(): boolean {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (error) {
    // wrk --version prints its banner and exits 1; only a missing binary is ENOENT.
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}

const env = loadEnv({ ...process.env, DATA_DIR: process.env.DATA_DIR ?? './data-bench' });
if (!env.DATABASE_URL) throw new Error('bench:ceiling measures PostgreSQL: set DATABASE_URL to a seed:scale database');

const loadAverage = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');

interface Statement {
  sql: string;
  params: unknown[];
  /** The name it is prepared under on each connection ('' for unnamed: planned with its values on every call). */
  name: string;
}

/** The page statement the server sends for a repeated Search of the body as agent1 (its total kept). */
async function pageStatement(): Promise<Statement> {
  const pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: 2, options: POSTGRES_SESSION_OPTIONS });
  // As the driver is handed it, name included (a drizzle logger sees no name).
  const recorded = recordSentStatements();
  try {
    const db = drizzle({ client: pool, schema }) as unknown as Database;
    const [user] = await db.select().from(schema.users).where(eq(schema.users.loginName, 'agent1'));
    if (!user) throw new Error('no user agent1: run npm run seed:scale first');
    const [scope, probes] = await Promise.all([resolveSchoolScope(db, user), getVisibilityProbes(db, user)]);
    const ctx: EngineContext = { db, user: user as unknown as AuthUser, scope, def: Student, view: Student.views[0]!, buttons: new Set(), probes, locale: 'zh', ...BENCH_SERVICES };
    const { pageIndex, pageSize, sortField, sortOrder, ...filters } = searchSchemaOf(Student).parse(BODY) as Row & { pageIndex: number; pageSize: number; sortField?: string; sortOrder?: 'asc' | 'desc' };
    const ask = searchAskOf(ctx, filters, sortField, sortOrder);
    await searchPage(ctx, ask, filters, pageSize, (pageIndex - 1) * pageSize);
    const before = recorded.sent.length;
    // The second call of a filter set: its total is kept, so it sends the page statement alone.
    await searchPage(ctx, ask, filters, pageSize, (pageIndex - 1) * pageSize);
    const pages = recorded.sent.flatMap((sql, i) => (i >= before && sql.includes('from "students"') ? [{ sql, params: recorded.values[i]!, name: recorded.names[i]! }] : []));
    if (pages.length !== 1) throw new Error(`expected one page statement for a repeated Search, captured ${pages.length}`);
    return pages[0]!;
  } finally {
    recorded.stop();
    await pool.end();
  }
}

/** The statement as the server sends it: named when the engine names it. */
const sent = (statement: Statement): pg.QueryConfig => ({ text: statement.sql, values: statement.params, ...(statement.name && { name: statement.name }) });

/** PIDs of the database's client backends but `except` (this bench's own probe connection). */
async function backendPids(probe: pg.Client): Promise<number[]> {
  const result = await probe.query<{ pid: number }>(`select pid from pg_stat_activity where datname = current_database() and backend_type = 'client backend' and pid <> pg_backend_pid()`);
  return result.rows.map((row) => row.pid);
}

/** Each backend's CPU so far, to be read again by `cpuSince`. */
const cpuOfEach = (pids: number[]) => new Map(pids.map((pid) => [pid, cpuMsOf(pid)]));

/**
 * CPU the database's backends used since `before`: those there now, a backend opened meanwhile counted
 * whole (the server's pool reopens connections that timed out idle while the other phase ran). A
 * backend that ended meanwhile cannot be read, and must not be subtracted with its whole past.
 */
async function cpuSince(before: Map<number, number>, probe: pg.Client): Promise<number> {
  let sum = 0;
  for (const pid of await backendPids(probe)) sum += Math.max(0, cpuMsOf(pid) - (before.get(pid) ?? 0));
  return sum;
}

/** What a phase did over its slices, CPU in ms summed. */
interface Phase {
  requests: number;
  seconds: number;
  errors: number;
  postgresCpu: number;
  /** The server's Node (API phase). */
  nodeCpu: number;
  /** The phase's client: the pg driver in this process (DB), the load generator (API). */
  clientCpu: number;
}

const emptyPhase = (): Phase => ({ requests: 0, seconds: 0, errors: 0, postgresCpu: 0, nodeCpu: 0, clientCpu: 0 });

function addTo(total: Phase, slice: Phase): void {
  for (const key of Object.keys(total) as (keyof Phase)[]) total[key] += slice[key];
}

/** A pool of CLIENTS connections with the server's session options, each warmed (plans, caches) on the statement. */
async function warmPool(statement: Statement): Promise<pg.Pool> {
  const pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: CLIENTS, options: POSTGRES_SESSION_OPTIONS });
  await Promise.all(Array.from({ length: CLIENTS }, async () => {
    for (let i = 0; i < 20; i += 1) await pool.query(sent(statement));
  }));
  return pool;
}

/** One slice: the statement through the pg driver alone, CLIENTS connections back to back. */
async function runDatabase(statement: Statement, pool: pg.Pool, probe: pg.Client): Promise<Phase> {
  const cpuBefore = cpuOfEach(await backendPids(probe));
  const clientBefore = cpuMsOf(process.pid);
  let requests = 0;
  let errors = 0;
  const t0 = performance.now();
  const end = t0 + SLICE_SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < end) {
        try {
          await pool.query(sent(statement));
          requests += 1;
        } catch {
          errors += 1;
        }
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  return { requests, seconds, errors, postgresCpu: await cpuSince(cpuBefore, probe), nodeCpu: 0, clientCpu: cpuMsOf(process.pid) - clientBefore };
}

interface Load {
  requests: number;
  seconds: number;
  errors: number;
}

/** `seconds` of load on the Search by autocannon, in this process. */
async function autocannonLoad(url: string, headers: Record<string, string>, seconds: number): Promise<Load> {
  const result = await autocannon({ url, method: 'POST', headers, body: JSON.stringify(BODY), connections: CLIENTS, duration: seconds });
  return { requests: result['2xx'], seconds: result.duration, errors: result.non2xx + result.errors + result.timeouts };
}

/** `seconds` of load on the Search by wrk (one thread), in a child process. */
async function wrkLoad(url: string, headers: Record<string, string>, seconds: number): Promise<Load> {
  // The script holds the caller's token: it lives for this slice only.
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ceiling-'));
  const script = path.join(dir, 'search.lua');
  const lua = (value: string) => JSON.stringify(value); // a JSON string of ASCII and CJK is a valid Lua string
  writeFileSync(script, [`wrk.method = "POST"`, `wrk.body = ${lua(JSON.stringify(BODY))}`, ...Object.entries(headers).map(([key, value]) => `wrk.headers[${lua(key)}] = ${lua(value)}`)].join('\n'));
  const output = await new Promise<string>((resolve, reject) => {
    execFile('wrk', ['-t', '1', '-c', String(CLIENTS), '-d', `${seconds}s`, '-s', script, url], (error, stdout) => (error ? reject(error) : resolve(stdout)));
  }).finally(() => rmSync(dir, { recursive: true, force: true }));
  const done = /(\d+) requests in ([\d.]+)(m?s)/.exec(output);
  if (!done) throw new Error(`wrk printed no request count:\n${output}`);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0);
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  const errors = non2xx + (socketErrors ? socketErrors.slice(1).reduce((sum, count) => sum + Number(count), 0) : 0);
  return { requests: Number(done[1]) - non2xx, seconds: Number(done[2]) / (done[3] === 'ms' ? 1000 : 1), errors };
}

const load = GENERATOR === 'wrk' ? wrkLoad : autocannonLoad;

/** One slice: the API under the load generator, CLIENTS keep-alive connections. */
async function runApi(url: string, headers: Record<string, string>, serverPid: number, probe: pg.Client): Promise<Phase> {
  const nodeBefore = cpuMsOf(serverPid);
  const postgresBefore = cpuOfEach(await backendPids(probe));
  // autocannon runs in this process; wrk is a child, counted once it has been waited for.
  const generatorBefore = cpuMsOf(process.pid) + childrenCpuMs(process.pid);
  const result = await load(url, headers, SLICE_SECONDS);
  return {
    ...result,
    nodeCpu: cpuMsOf(serverPid) - nodeBefore,
    postgresCpu: await cpuSince(postgresBefore, probe),
    clientCpu: cpuMsOf(process.pid) + childrenCpuMs(process.pid) - generatorBefore,
  };
}

async function main(): Promise<void> {
  console.log(`bench:ceiling on PostgreSQL ${new URL(env.DATABASE_URL!).pathname.slice(1)} — ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, Node ${process.version}`);
  console.log(`agent1's Student Search ${JSON.stringify(BODY)}, page 1 × 20; ${CLIENTS} clients, ${ROUNDS} rounds of ${SLICE_SECONDS} s per phase; session options: ${POSTGRES_SESSION_OPTIONS}`);
  const statement = await pageStatement();
  console.log(`page statement: ${statement.sql.length} characters, ${statement.params.length} parameters, ${statement.name ? `named ${statement.name}` : 'unnamed (planned with its values on each call)'}`);
  if (args.explain) {
    const client = new pg.Client({ connectionString: env.DATABASE_URL, options: POSTGRES_SESSION_OPTIONS });
    await client.connect();
    console.log(statement.sql);
    // A named statement is explained as PostgreSQL runs it: EXPLAIN EXECUTE.
    if (statement.name) await client.query(`prepare ceiling_page as ${statement.sql}`);
    const literal = (value: unknown) => (typeof value === 'number' ? String(value) : client.escapeLiteral(String(value)));
    const explained = statement.name ? `execute ceiling_page(${statement.params.map(literal).join(', ')})` : statement.sql;
    // Past the five calls PostgreSQL plans with the values before it weighs the plan made without them.
    for (let i = 0; i < 7; i += 1) {
      const plan = await client.query(`explain (analyze, buffers) ${explained}`, statement.name ? [] : statement.params);
      if (i === 6) for (const row of plan.rows as Record<string, string>[]) console.log(`    ${Object.values(row)[0]}`);
    }
    await client.end();
    return;
  }
  // The server's fixed captcha and the shedding that a saturating load trips by design are off, as in bench:cpu.
  process.env.SHED_EVENT_LOOP_UTILIZATION ??= '0';
  const server = await startBenchServer(env.DATA_DIR);
  const probe = new pg.Client({ connectionString: env.DATABASE_URL });
  await probe.connect();
  try {
    const token = await loginAs(server.base, 'agent1');
    const loadStart = loadAverage();
    const pool = await warmPool(statement);
    const url = `${server.base}/api/Student/Search`;
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
    // Warm the server's code paths and its pool's connections first.
    await load(url, headers, 2);
    const db = emptyPhase();
    const api = emptyPhase();
    const ratios: string[] = [];
    try {
      for (let round = 0; round < ROUNDS; round += 1) {
        const dbSlice = await runDatabase(statement, pool, probe);
        const apiSlice = await runApi(url, headers, server.pid, probe);
        addTo(db, dbSlice);
        addTo(api, apiSlice);
        ratios.push((apiSlice.requests / apiSlice.seconds / (dbSlice.requests / dbSlice.seconds)).toFixed(2));
      }
    } finally {
      await pool.end();
    }
    const dbRate = db.requests / db.seconds;
    const apiRate = api.requests / api.seconds;
    const perRequest = (cpu: number, phase: Phase) => (cpu / phase.requests).toFixed(3);
    console.log(`\nload average: ${loadStart} at the start, ${loadAverage()} at the end (other work on the machine lowers both rates)\n`);
    console.log('| phase | requests/s | CPU per request: Node ms | PostgreSQL ms | client ms | errors |');
    console.log('|---|---|---|---|---|---|');
    console.log(`| DB: page statement through pg alone | ${dbRate.toFixed(0)} | – | ${perRequest(db.postgresCpu, db)} | ${perRequest(db.clientCpu, db)} (pg) | ${db.errors} |`);
    console.log(`| API: POST /api/Student/Search (${GENERATOR}) | ${apiRate.toFixed(0)} | ${perRequest(api.nodeCpu, api)} | ${perRequest(api.postgresCpu, api)} | ${perRequest(api.clientCpu, api)} (${GENERATOR}) | ${api.errors} |`);
    const ratio = apiRate / dbRate;
    console.log(`\nAPI/DB = ${ratio.toFixed(2)} (rounds: ${ratios.join(', ')}; target ≥ 0.6: ${ratio >= 0.6 ? 'met' : 'NOT met'})`);
  } finally {
    await probe.end();
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(`bench:ceiling failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
});
