/**
 * bench:orders — a flash sale through the parent app's channel: 1,000 parents, 50 at a time, each
 * placing one order (PlaceMallOrder, with its Idempotency-Key) for a commodity with 100 in stock. It
 * prints order attempts per second, the answers' p50/p99 and longest wait, how many were placed and
 * refused, and then, from the database with the server stopped: oversold (stock below zero or more
 * sold than there was), and acknowledged orders that are not stored (lost).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/<your scratch db> npm run bench:orders   # PostgreSQL (the target)
 *   npm run bench:orders -- --db pglite
 *
 * The server is the console as `npm start` runs it, on a scratch database of its own (main-server.ts,
 * demo seed). The sale's own rows — parents of one school, their addresses and app sessions, the
 * commodity and its release — are written straight into the database between two starts (signing a
 * thousand parents in through the channel would measure the sign-in limits, not the sale).
 *
 * It also prints the CPU each attempt cost, which holds on a busy machine where the rate does not:
 * the server process (utime + stime from /proc/<pid>/stat; on PGlite the database runs inside it)
 * and, on PostgreSQL, the backends of the scratch database (pg_stat_activity, read the same way),
 * beside the bench's own client CPU, which shares the same cores. The placed orders' answers are also
 * printed apart: they queue on the commodity's row, the refusals do not.
 *
 * Before the sale every parent opens the commodity's page (MallCommodity), as the app's parents do while
 * they wait for it to open: the sale meets a server that has served them (pools open, code compiled),
 * as a sale announced in advance does; `--cold` starts the sale on the fresh server instead.
 *
 * Options: --parents 1000, --concurrency 50, --stock 100, --instances 1 (PostgreSQL: that many consoles
 * on the one database, each buyer sent to one in turn, as a load balancer would; the server CPU is theirs together). `--count-statements` (PostgreSQL) also counts
 * the statements the sale sent: the scratch database logs every statement (`log_statement = all`, set
 * on it alone), and the lines it added to the server's log during the sale are counted (BENCH_PG_LOG,
 * by default Debian's /var/log/postgresql/postgresql-15-main.log; its prefix must name the database,
 * `%d`). BEGIN and COMMIT count, as the round trips they are. Logging costs CPU: its runs are not the
 * ones to quote rates from.
 */
import { APP_MALL_PATHS, IDEMPOTENCY_KEY_HEADER, POSTER_AUDIENCE_ALL } from '@campus/contract';
import { createDatabase } from '@campus/server/src/db/client.js';
import { loadEnv } from '@campus/server/src/env.js';
import { hashToken } from '@campus/server/src/platform/sessions.js';
import { sql } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import { openSync, readFileSync, readSync, statSync, closeSync } from 'node:fs';
import { cpuMsOf } from './proc-cpu.js';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { scratchDatabase, startServer, stop, type Started } from './main-server.js';
import { percentile } from './stats.js';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: process.env.DATABASE_URL ? 'postgres' : 'pglite' },
    parents: { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '50' },
    stock: { type: 'string', default: '100' },
    // Start the sale at once, while the start's background work still runs (how the first runs measured it).
    'no-settle': { type: 'boolean', default: false },
    'count-statements': { type: 'boolean', default: false },
    cold: { type: 'boolean', default: false },
    // Instances of the console on the one database, the buyers spread over them as a load balancer would (PostgreSQL).
    instances: { type: 'string', default: '1' },
  },
});
const PARENTS = Number(args.parents);
const CONCURRENCY = Number(args.concurrency);
const STOCK = Number(args.stock);
const INSTANCES = Number(args.instances);
if (INSTANCES > 1 && args.db !== 'postgres') throw new Error('--instances needs PostgreSQL: PGlite is one process at a time');

type Rows<T> = { rows: T[] };

// The sale's client: node:http on kept-alive sockets, one per buyer in flight. fetch cost the bench as much
// CPU per attempt as the server (≈ 1.6 ms) on the same two cores, which measured the client as much as the console.
const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

/** What one call answered, and when (ms after the call): its request fully written, its answer's headers read. */
interface Answer {
  status: number;
  envelope: unknown;
  timing: string;
  writtenMs: number;
  headersMs: number;
}

/** GETs, or POSTs a JSON body; answers the status, the parsed envelope, the Server-Timing header and when the request left and the answer came. */
function call(url: string, headers: Record<string, string>, body?: unknown): Promise<Answer> {
  const started = performance.now();
  let writtenMs = 0;
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const sent = payload === undefined ? { method: 'GET', headers } : { method: 'POST', headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) } };
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { ...sent, agent }, (response) => {
      const headersMs = performance.now() - started;
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        try {
          const envelope: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          resolve({ status: response.statusCode ?? 0, envelope, timing: String(response.headers['server-timing'] ?? ''), writtenMs, headersMs });
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      });
      response.on('error', reject);
    });
    outgoing.on('finish', () => (writtenMs = performance.now() - started));
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}
interface Buyer {
  token: string;
  addressId: number;
}

/** Runs `each` for every buyer's index, `CONCURRENCY` at a time, each worker taking the next buyer when it is done. */
async function forEachBuyer(count: number, each: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) await each(next++);
    }),
  );
}

/** Each buyer reads the commodity's page on its instance (`baseOf`), `CONCURRENCY` at a time; answers how many answered 200. */
async function openCommodityPages(baseOf: (index: number) => string, buyers: readonly Buyer[], commodityId: number): Promise<number> {
  let opened = 0;
  await forEachBuyer(buyers.length, async (index) => {
    const response = await call(`${baseOf(index)}${APP_MALL_PATHS.commodity}?id=${commodityId}`, { authorization: `Bearer ${buyers[index]!.token}` });
    if (response.status === 200) opened += 1;
  });
  return opened;
}

/** Writes the sale's rows: parents of the first school with an address and a session each, and the commodity on sale to every school. */
async function prepareSale(env: Record<string, string>): Promise<{ commodityId: number; buyers: Buyer[] }> {
  const database = await createDatabase(loadEnv({ ...process.env, ...env, LOG_LEVEL: 'warn' }));
  const { db } = database;
  try {
    const [school] = ((await db.execute(sql`select id from schools order by id limit 1`)) as unknown as Rows<{ id: number }>).rows;
    const [merchant] = ((await db.execute(sql`select id from market_merchants order by id limit 1`)) as unknown as Rows<{ id: number }>).rows;
    const [category] = ((await db.execute(sql`select id from market_categories order by id limit 1`)) as unknown as Rows<{ id: number }>).rows;
    if (!school || !merchant || !category) throw new Error('the demo seed should have made schools, merchants and categories');
    const [commodity] = (
      (await db.execute(sql`insert into market_commodities (title, category_id, merchant_id, unit_price, stock_count, sold_count, is_enabled)
        values ('秒杀·儿童护眼台灯', ${category.id}, ${merchant.id}, 9900, ${STOCK}, 0, true) returning id`)) as unknown as Rows<{ id: number }>
    ).rows;
    await db.execute(sql`insert into market_commodity_releases (title, commodity_id, start_date, end_date, audience, sort, enabled)
      values ('秒杀 · 全部学校', ${commodity!.id}, date '2000-01-01', date '2099-12-31', ${POSTER_AUDIENCE_ALL}, 0, true)`);
    const parents = (
      (await db.execute(sql`insert into parents (phone_num, name, school_id, enabled)
        select '166' || lpad(g::text, 8, '0'), '秒杀家长' || g, ${school.id}, true from generate_series(1, ${PARENTS}) g returning id`)) as unknown as Rows<{ id: number }>
    ).rows.map((row) => Number(row.id));
    const addresses = (
      (await db.execute(sql`insert into market_addresses (parent_id, school_id, consignee_name, consignee_phone, province, city, area, detail, is_default)
        select p, ${school.id}, '王芳', '13800001234', '浙江省', '杭州市', '西湖区', '文三路 1 号', true from unnest(${`{${parents.join(',')}}`}::int[]) p
        returning id, parent_id as "parentId"`)) as unknown as Rows<{ id: number; parentId: number }>
    ).rows;
    const tokens = parents.map(() => randomBytes(24).toString('base64url'));
    const now = new Date();
    const expires = new Date(now.getTime() + 86_400_000);
    await db.execute(sql`insert into parent_sessions (token_hash, parent_id, created_at, expires_at, last_seen_at)
      select h, p, ${now.toISOString()}::timestamptz, ${expires.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
      from unnest(${`{${tokens.map(hashToken).join(',')}}`}::text[], ${`{${parents.join(',')}}`}::int[]) as s(h, p)`);
    const addressOf = new Map(addresses.map((row) => [Number(row.parentId), Number(row.id)]));
    return { commodityId: commodity!.id, buyers: parents.map((id, i) => ({ token: tokens[i]!, addressId: addressOf.get(id)! })) };
  } finally {
    await database.close();
  }
}


const PG_LOG = process.env.BENCH_PG_LOG ?? '/var/log/postgresql/postgresql-15-main.log';

/** The scratch database's name (the path of its URL). */
const databaseNameOf = (databaseUrl: string) => decodeURIComponent(new URL(databaseUrl).pathname.slice(1));

/** Has the scratch database log every statement its sessions send from their start on (the server is started after). */
async function logStatementsOf(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`alter database ${client.escapeIdentifier(databaseNameOf(databaseUrl))} set log_statement = 'all'`);
  } finally {
    await client.end();
  }
}

/** The statements the database `name` logged after byte `from` of the server's log (extended protocol: one `execute` line each). */
function statementsLoggedSince(from: number, name: string): number {
  const size = statSync(PG_LOG).size;
  const buffer = Buffer.alloc(size - from);
  const fd = openSync(PG_LOG, 'r');
  try {
    readSync(fd, buffer, 0, buffer.length, from);
  } finally {
    closeSync(fd);
  }
  const logged = new RegExp(`@${name.replace(/[^a-z0-9_]/gi, '')} LOG:  (statement|execute [^:]*):`);
  return buffer.toString('utf8').split('\n').filter((line) => logged.test(line)).length;
}

/** CPU ms of the scratch database's backends by pid (PostgreSQL only; none on PGlite). */
async function backendCpu(databaseUrl: string | undefined): Promise<Map<number, number>> {
  if (!databaseUrl) return new Map();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const found = await client.query<{ pid: number }>('select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
    return new Map(found.rows.map((row) => [row.pid, cpuMsOf(row.pid)]));
  } finally {
    await client.end();
  }
}

/** CPU the backends used between two readings (a backend new since the first counts whole). */
function backendCpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let used = 0;
  for (const [pid, ms] of after) used += ms - (before.get(pid) ?? 0);
  return used;
}

/**
 * Waits until the server's start-up work is done (its recurring jobs catch up on the demo seed: album
 * books, rollups) — two quiet seconds in a row, at most a minute — so the CPU per attempt is the
 * sale's. Answers how long it waited.
 */
async function settled(pid: number): Promise<number> {
  const started = performance.now();
  let quiet = 0;
  while (quiet < 2 && performance.now() - started < 60_000) {
    const before = cpuMsOf(pid);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    quiet = cpuMsOf(pid) - before < 50 ? quiet + 1 : 0;
  }
  return performance.now() - started;
}

const scratch = await scratchDatabase(args.db, 'orders');
let servers: Started[] = [];
try {
  // The first start migrates and seeds; the sale's rows go in while it is stopped (PGlite is one process at a time).
  servers = [await startServer(scratch.env)];
  await stop(servers[0]!.child);
  servers = [];
  const { commodityId, buyers } = await prepareSale(scratch.env);
  const countStatements = args['count-statements'] && Boolean(scratch.env.DATABASE_URL);
  if (countStatements) await logStatementsOf(scratch.env.DATABASE_URL!);
  for (let i = 0; i < INSTANCES; i += 1) servers.push(await startServer(scratch.env));
  if (!args['no-settle']) {
    const settledMs = Math.max(...(await Promise.all(servers.map((server) => settled(server.child.pid!)))));
    console.log(`${args.db}: background jobs settled ${(settledMs / 1000).toFixed(1)} s after the start`);
  }
  const instancesText = INSTANCES > 1 ? `${INSTANCES} instances on the one database, the buyers spread over them in turn; ` : '';
  console.log(`${args.db}: server up in ${(servers[0]!.startMs / 1000).toFixed(1)} s; ${instancesText}${buyers.length} parents, ${CONCURRENCY} at a time, ${STOCK} in stock`);
  // Buyer i goes to instance i mod N, for the page and the order alike, as a load balancer's turns would send it.
  const baseOf = (index: number) => servers[index % servers.length]!.base;

  if (!args.cold) {
    const opened = await openCommodityPages(baseOf, buyers, commodityId);
    console.log(`${args.db}: every parent opened the commodity's page first (${opened} answers, not timed); --cold skips it`);
  }

  const latencies: number[] = [];
  const placedLatencies: number[] = [];
  let lastPlacedAt = 0;
  const acknowledged: number[] = [];
  const refusals = new Map<string, number>();
  const slowest: { took: number; sentAt: number; timing: string; writtenMs: number; headersMs: number }[] = [];
  const serverCpu = () => servers.reduce((sum, server) => sum + cpuMsOf(server.child.pid!), 0);
  const databaseUrl = scratch.env.DATABASE_URL || undefined;
  const serverCpuBefore = serverCpu();
  const clientCpuBefore = process.cpuUsage();
  const backendsBefore = await backendCpu(databaseUrl);
  const logFrom = countStatements ? statSync(PG_LOG).size : 0;
  const started = performance.now();
  await forEachBuyer(buyers.length, async (index) => {
    const buyer = buyers[index]!;
    const t0 = performance.now();
    const response = await call(
      `${baseOf(index)}${APP_MALL_PATHS.placeOrder}`,
      { authorization: `Bearer ${buyer.token}`, [IDEMPOTENCY_KEY_HEADER]: `flash-${randomBytes(8).toString('hex')}` },
      { lines: [{ commodityId, quantity: 1 }], addressId: buyer.addressId },
    );
    const envelope = response.envelope as { code: number | string; key?: string; data: { orderId?: number } | null };
    const took = performance.now() - t0;
    latencies.push(took);
    // The server's own account of the slowest answers: its time and how long it waited for the database.
    slowest.push({ took, sentAt: t0 - started, timing: response.timing, writtenMs: response.writtenMs, headersMs: response.headersMs });
    if (slowest.length > 20) slowest.sort((a, b) => b.took - a.took).pop();
    if (envelope.code === 200 && envelope.data?.orderId) {
      acknowledged.push(envelope.data.orderId);
      placedLatencies.push(took);
      lastPlacedAt = Math.max(lastPlacedAt, performance.now() - started);
    } else refusals.set(`${response.status} ${envelope.key ?? envelope.code}`, (refusals.get(`${response.status} ${envelope.key ?? envelope.code}`) ?? 0) + 1);
  });
  const seconds = (performance.now() - started) / 1000;
  const serverCpuMs = serverCpu() - serverCpuBefore;
  const clientCpu = process.cpuUsage(clientCpuBefore);
  const clientCpuMs = (clientCpu.user + clientCpu.system) / 1000;
  const databaseCpuMs = backendCpuBetween(backendsBefore, await backendCpu(databaseUrl));
  // The log is written asynchronously by the backends: a moment for the last lines to land.
  if (countStatements) await new Promise((resolve) => setTimeout(resolve, 500));
  const statements = countStatements ? statementsLoggedSince(logFrom, databaseNameOf(databaseUrl!)) : undefined;
  latencies.sort((a, b) => a - b);
  placedLatencies.sort((a, b) => a - b);
  for (const server of servers) await stop(server.child);
  servers = [];

  const database = await createDatabase(loadEnv({ ...process.env, ...scratch.env, LOG_LEVEL: 'warn' }));
  const [stock] = (
    (await database.db.execute(sql`select c.stock_count as stock, (select coalesce(sum(l.quantity), 0)::int from market_order_lines l where l.commodity_id = c.id) as sold
      from market_commodities c where c.id = ${commodityId}`)) as unknown as Rows<{ stock: number; sold: number }>
  ).rows;
  const stored = new Set(
    ((await database.db.execute(sql`select market_order_id as id from market_order_lines where commodity_id = ${commodityId}`)) as unknown as Rows<{ id: number }>).rows.map((row) => Number(row.id)),
  );
  await database.close();
  const lost = acknowledged.filter((id) => !stored.has(id)).length;
  const oversold = Math.max(0, Number(stock!.sold) - STOCK, -Number(stock!.stock));
  console.log(
    `${args.db}: ${buyers.length} attempts in ${seconds.toFixed(1)} s = ${(buyers.length / seconds).toFixed(0)} attempts/s; ` +
      `answer p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms, longest ${latencies.at(-1)!.toFixed(0)} ms`,
  );
  console.log(
    `${args.db}: CPU per attempt: server ${(serverCpuMs / buyers.length).toFixed(2)} ms` +
      (databaseUrl ? `, database backends ${(databaseCpuMs / buyers.length).toFixed(2)} ms` : ' (the database runs inside it)') +
      `, together ${((serverCpuMs + databaseCpuMs) / buyers.length).toFixed(2)} ms: ${(1000 / ((serverCpuMs + databaseCpuMs) / buyers.length)).toFixed(0)} attempts per CPU second` +
      ` (the bench's own client ${(clientCpuMs / buyers.length).toFixed(2)} ms, on the same cores)`,
  );
  if (statements !== undefined) {
    console.log(`${args.db}: ${statements} statements logged during the sale = ${(statements / buyers.length).toFixed(2)} per attempt (BEGIN and COMMIT included; the bench's own reading of the backends adds 1)`);
  }
  if (placedLatencies.length > 0) {
    console.log(
      `${args.db}: the placed orders' answers: p50 ${percentile(placedLatencies, 50).toFixed(0)} ms, p99 ${percentile(placedLatencies, 99).toFixed(0)} ms; ` +
        `the last placed ${(lastPlacedAt / 1000).toFixed(2)} s into the sale`,
    );
  }
  console.log(`${args.db}: ${acknowledged.length} orders placed, refused: ${JSON.stringify(Object.fromEntries(refusals))}`);
  console.log(`${args.db}: stock left ${stock!.stock}, sold ${stock!.sold} of ${STOCK}: ${oversold} oversold; ${stored.size} orders stored, ${lost} acknowledged orders lost`);
  for (const { took, sentAt, timing, writtenMs, headersMs } of slowest.sort((a, b) => b.took - a.took).slice(0, 3)) {
    console.log(
      `${args.db}: a slowest answer: ${took.toFixed(0)} ms, sent ${(sentAt / 1000).toFixed(1)} s into the sale, ` +
        `its request written after ${writtenMs.toFixed(1)} ms, the answer's headers read after ${headersMs.toFixed(1)} ms; server-timing ${timing}`,
    );
  }
  console.log(`load average: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
  if (oversold > 0 || lost > 0 || acknowledged.length !== Math.min(STOCK, buyers.length)) process.exitCode = 1;
} finally {
  for (const server of servers) await stop(server.child);
  await scratch.cleanUp();
}
