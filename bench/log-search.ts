/**
 * Measures the log kind's Search at scale on PostgreSQL: page 1 and page 500 (reached by cursor) of
 * the last 7 days of the operation log, over every row and for one user, with the SQL the engine builds.
 *
 *   createdb campus_bench_logs
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/campus_bench_logs npm run bench:logs -- --rows 5000000
 *
 * Seeds `--rows` operation-log rows spread over 90 days with one INSERT ... SELECT generate_series
 * per million (indexes rebuilt once after the load), unless the table already holds that many.
 * Prints p50 / p95 of the database time; it asserts nothing (ARCHITECTURE "Tests and CI").
 */
import { OperationLog, logSearchSchemaOf } from '@campus/contract';
import { createDatabase } from '@campus/server/src/db/client.js';
import { migrateDatabase } from '@campus/server/src/db/migrate.js';
import { seedDefaults } from '@campus/server/src/db/seed/defaults.js';
import { seedDemo } from '@campus/server/src/db/seed/demo.js';
import { users } from '@campus/server/src/db/schema/index.js';
import { loadEnv } from '@campus/server/src/env.js';
import { resolveSchoolScope } from '@campus/server/src/platform/scope.js';
import { getVisibilityProbes } from '@campus/server/src/platform/probes.js';
import type { AuthUser } from '@campus/server/src/platform/auth.js';
import type { EngineContext, Row } from '@campus/server/src/resources/engine/context.js';
import { cursorAt, decodeCursor, keyCondition, logOrder, logRange, withLogRange } from '@campus/server/src/resources/engine/log.js';
import { allConditions, filterWhere, scopeWhere, selectPage } from '@campus/server/src/resources/engine/query.js';
import { tableOf } from '@campus/server/src/resources/engine/registry.js';
import { eq, sql } from 'drizzle-orm';
import os from 'node:os';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({ options: { rows: { type: 'string', default: '5000000' }, samples: { type: 'string', default: '50' } } });
const ROWS = Number(args.rows);
const SAMPLES = Number(args.samples);
const DAYS = 90;
const PAGE_SIZE = 20;

const env = loadEnv({ ...process.env });
if (!env.DATABASE_URL) throw new Error('bench:logs measures PostgreSQL: set DATABASE_URL');
const handle = await createDatabase(env);
const db = handle.db;
const count = async () => Number(((await db.execute(sql`select count(*)::int as n from operation_log`)) as unknown as { rows: { n: number }[] }).rows[0]!.n);

async function seed(): Promise<void> {
  await migrateDatabase(handle, env.DATABASE_URL);
  await seedDefaults(db);
  await seedDemo(db);
  const have = await count();
  if (have >= ROWS) return;
  const started = performance.now();
  const indexes = ((await db.execute(sql`select indexname, indexdef from pg_indexes where tablename = 'operation_log' and indexname like '%_idx'`)) as unknown as {
    rows: { indexname: string; indexdef: string }[];
  }).rows;
  // One transaction: a failed load leaves the table and its indexes as they were.
  await db.transaction(async (tx) => {
  for (const index of indexes) await tx.execute(sql.raw(`drop index ${index.indexname}`));
  const families = ['School', 'Student', 'Device', 'Teacher', 'Parent', 'License', 'DeviceDelivery', 'CompanyUser'];
  for (let from = have + 1; from <= ROWS; from += 1_000_000) {
    const to = Math.min(ROWS, from + 999_999);
    // Rows spread evenly over the last 90 days, 1 in 7 by each demo account.
    await tx.execute(sql.raw(`
      insert into operation_log (user_id, family, action, ids, changes, created_at)
      select u.ids[1 + i % array_length(u.ids, 1)],
             (array['${families.join("','")}'])[1 + i % ${families.length}],
             (array['add','update','update','delete'])[1 + i % 4],
             array[i],
             jsonb_build_object('name', jsonb_build_array('a' || i, 'b' || i)),
             now() - (interval '1 second' * ((i::bigint * 7919) % (${DAYS} * 86400)))
      from generate_series(${from}, ${to}) as i, (select array_agg(id order by id) as ids from users) u`));
    console.log(`seeded ${to.toLocaleString('en')} rows (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  }
  for (const index of indexes) await tx.execute(sql.raw(index.indexdef));
  });
  await db.execute(sql`vacuum analyze operation_log`);
  console.log(`indexes rebuilt (${((performance.now() - started) / 1000).toFixed(0)} s)`);
}

async function contextOf(loginName: string): Promise<EngineContext> {
  const [user] = await db.select().from(users).where(eq(users.loginName, loginName));
  const [scope, probes] = await Promise.all([resolveSchoolScope(db, user!), getVisibilityProbes(db, user!)]);
  const def = OperationLog;
  return { db, user: user as unknown as AuthUser, scope, probes, def, view: def.views[0]!, buttons: new Set(), locale: 'zh' };
}

/** The page query of the log Search route for the given filters and cursor. */
function pageOf(ctx: EngineContext, filters: Row, cursor?: string) {
  const table = tableOf(ctx.def);
  const range = logRange(ctx.def, filters, new Date());
  const where = allConditions(scopeWhere(ctx, table), filterWhere(ctx, table, withLogRange(ctx.def, filters, range)));
  return selectPage(ctx, allConditions(where, cursor ? keyCondition(ctx.def, table, decodeCursor(cursor)) : undefined), logOrder(ctx.def, table), PAGE_SIZE + 1, 0);
}

/** The cursor that opens page `page`: found once by offset, as a reader paging forward would hold it. */
async function cursorOfPage(ctx: EngineContext, filters: Row, page: number): Promise<string> {
  const table = tableOf(ctx.def);
  const range = logRange(ctx.def, filters, new Date());
  const where = allConditions(filterWhere(ctx, table, withLogRange(ctx.def, filters, range)));
  const [row] = (await selectPage(ctx, where, logOrder(ctx.def, table), 1, (page - 1) * PAGE_SIZE - 1)) as Row[];
  return cursorAt(ctx.def, row!, 'next');
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function measure(label: string, run: () => Promise<unknown>): Promise<void> {
  for (let i = 0; i < 5; i += 1) await run();
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i += 1) {
    const t0 = performance.now();
    await run();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  console.log(`${label.padEnd(58)} p50 ${percentile(times, 50).toFixed(2).padStart(7)} ms   p95 ${percentile(times, 95).toFixed(2).padStart(7)} ms`);
}

try {
  await seed();
  console.log(`\nbench:logs on PostgreSQL — ${os.cpus().length} × ${os.cpus()[0]?.model}, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log(`operation_log: ${(await count()).toLocaleString('en')} rows over ${DAYS} days; pages of ${PAGE_SIZE}, last 7 days (default range)\n`);
  const admin = await contextOf('admin');
  const [oneUser] = await db.select({ id: users.id }).from(users).where(eq(users.loginName, 'agent1'));
  const filtersOf = (filters: Row) => logSearchSchemaOf(OperationLog).parse(filters) as Row;
  for (const [label, filters] of [
    ['all rows', {}],
    ['one user (userId)', { userId: oneUser!.id }],
    ['one family (family = Student)', { family: 'Student' }],
  ] as const) {
    const { pageSize: _pageSize, pageIndex: _pageIndex, cursor: _cursor, ...parsed } = filtersOf(filters);
    await measure(`${label}, page 1`, () => pageOf(admin, parsed));
    const cursor = await cursorOfPage(admin, parsed, 500);
    await measure(`${label}, page 500 by cursor`, () => pageOf(admin, parsed, cursor));
  }
  console.log(`\nload average at end: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
} finally {
  await handle.close();
}
