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
import { OperationLog } from '@campus/contract';
import { createDatabase } from '@campus/server/src/db/client.js';
import { migrateDatabase } from '@campus/server/src/db/migrate.js';
import { seedDefaults } from '@campus/server/src/seeds/defaults.js';
import { seedDemo } from '@campus/server/src/seeds/demo.js';
import { users } from '@campus/server/src/db/schema/index.js';
import { loadEnv } from '@campus/server/src/env.js';
import { resolveSchoolScope } from '@campus/server/src/platform/scope.js';
import { getVisibilityProbes } from '@campus/server/src/platform/probes.js';
import type { AuthUser } from '@campus/server/src/platform/auth.js';
import type { EngineContext } from '@campus/server/src/resources/engine/context.js';
import { loadLogRows, logCursorOfPage, logFiltersOf, logPageOf } from './log-bench.js';
import { eq, sql } from 'drizzle-orm';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { BENCH_SERVICES } from './engine-context.js';
import { percentile } from './stats.js';

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
  const families = ['School', 'Student', 'Device', 'Teacher', 'Parent', 'License', 'DeviceDelivery', 'CompanyUser'];
  await loadLogRows(db, {
    table: 'operation_log',
    rows: ROWS,
    // Rows spread evenly over the last 90 days, 1 in 7 by each demo account.
    insertSql: (from, to) => `
      insert into operation_log (user_id, family, action, ids, changes, created_at)
      select u.ids[1 + i % array_length(u.ids, 1)],
             (array['${families.join("','")}'])[1 + i % ${families.length}],
             (array['add','update','update','delete'])[1 + i % 4],
             array[i],
             jsonb_build_object('name', jsonb_build_array('a' || i, 'b' || i)),
             now() - (interval '1 second' * ((i::bigint * 7919) % (${DAYS} * 86400)))
      from generate_series(${from}, ${to}) as i, (select array_agg(id order by id) as ids from users) u`,
  });
}

async function contextOf(loginName: string): Promise<EngineContext> {
  const [user] = await db.select().from(users).where(eq(users.loginName, loginName));
  const [scope, probes] = await Promise.all([resolveSchoolScope(db, user!), getVisibilityProbes(db, user!)]);
  const def = OperationLog;
  return { db, user: user as unknown as AuthUser, scope, probes, def, view: def.views[0]!, buttons: new Set(), locale: 'zh', ...BENCH_SERVICES };
}


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
  for (const [label, filters] of [
    ['all rows', {}],
    ['one user (userId)', { userId: oneUser!.id }],
    ['one family (family = Student)', { family: 'Student' }],
  ] as const) {
    const parsed = logFiltersOf(OperationLog, filters);
    await measure(`${label}, page 1`, () => logPageOf(admin, parsed, PAGE_SIZE));
    const cursor = await logCursorOfPage(admin, parsed, PAGE_SIZE, 500);
    await measure(`${label}, page 500 by cursor`, () => logPageOf(admin, parsed, PAGE_SIZE, cursor));
  }
  console.log(`\nload average at end: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
} finally {
  await handle.close();
}
