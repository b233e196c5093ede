/**
 * What an Excel import of students costs: a workbook of N rows (default 50,000) is written as a stream,
 * checked by the dry run (ImportPreview) and imported in one transaction (Import) through the engine,
 * as an agent importing into its own schools. Prints the time of each step, the rows per second and
 * the process's peak resident memory, sampled while it runs.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/campus_bench_import npm run bench:import -- --rows 50000
 *
 * The database named is dropped and created again (it must not be one you keep). Without
 * DATABASE_URL an in-memory PGlite is used. Issue 11: 50,000 rows in ≤ 60 s on PostgreSQL with
 * constant memory. Prints figures; asserts nothing.
 */
import { Student } from '@campus/contract';
import { createDatabase } from '@campus/server/src/db/client.js';
import { IN_MEMORY_DATA_DIR } from '@campus/server/src/env.js';
import { migrateDatabase } from '@campus/server/src/db/migrate.js';
import * as schema from '@campus/server/src/db/schema/index.js';
import { seedDefaults } from '@campus/server/src/seeds/defaults.js';
import { seedDemo } from '@campus/server/src/seeds/demo.js';
import type { AuthUser } from '@campus/server/src/platform/auth.js';
import { getVisibilityProbes } from '@campus/server/src/platform/probes.js';
import { resolveSchoolScope } from '@campus/server/src/platform/scope.js';
import type { EngineContext } from '@campus/server/src/resources/engine/context.js';
import { previewImport, runImport } from '@campus/server/src/resources/engine/import/run-import.js';
import { count, eq, inArray, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { BENCH_SERVICES } from './engine-context.js';

const { values: args } = parseArgs({ options: { rows: { type: 'string', default: '50000' } } });
const rows = Number(args.rows);
const databaseUrl = process.env.DATABASE_URL;

/** Peak resident memory and peak live heap, sampled every 20 ms (the kernel's own peak counts the start-up too). */
let peakRss = 0;
let peakHeap = 0;
const sampler = setInterval(() => {
  const { rss, heapUsed } = process.memoryUsage();
  peakRss = Math.max(peakRss, rss);
  peakHeap = Math.max(peakHeap, heapUsed);
}, 20);
const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(0)} MB`;

async function freshDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = target.pathname.slice(1);
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`a plain database name, please: ${name}`);
  const admin = new pg.Client({ connectionString: Object.assign(new URL(url), { pathname: '/postgres' }).toString() });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
}

if (databaseUrl) await freshDatabase(databaseUrl);
const handle = await createDatabase({ DATABASE_URL: databaseUrl, DATA_DIR: IN_MEMORY_DATA_DIR });
await migrateDatabase(handle, databaseUrl);
await seedDefaults(handle.db);
await seedDemo(handle.db);
const { db } = handle;

const [agent] = await db.select().from(schema.users).where(eq(schema.users.loginName, 'agent1'));
const user = { ...agent!, sessionId: 0 } as unknown as AuthUser;
const scope = await resolveSchoolScope(db, user);
const schoolIds = scope.kind === 'schools' ? scope.schoolIds : [];
const schoolRows = await db.select({ id: schema.schools.id, name: schema.schools.schoolName }).from(schema.schools).where(inArray(schema.schools.id, schoolIds));
const ctx: EngineContext = {
  db,
  user,
  scope,
  def: Student,
  view: Student.views[0]!,
  buttons: new Set(['import']),
  probes: await getVisibilityProbes(db, user),
  locale: 'zh',
  ...BENCH_SERVICES,
};

// The workbook, written as a stream like a user's export would be: school, name, numbers, gender, birth date.
const folder = await mkdtemp(path.join(tmpdir(), 'bench-import-'));
const file = path.join(folder, 'students.xlsx');
const writer = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: true, useStyles: true });
const sheet = writer.addWorksheet('学生');
sheet.addRow(['学校 *', '姓名 *', '学号', '卡号', '性别', '出生日期', '状态']).commit();
const surnames = '王李张刘陈杨赵黄周吴徐孙胡朱高林何郭马罗';
for (let i = 0; i < rows; i++) {
  const school = schoolRows[i % schoolRows.length]!;
  const birth = new Date(Date.UTC(2012 + (i % 8), i % 12, 1 + (i % 28)));
  sheet.addRow([school.name, `${surnames[i % surnames.length]}导入${i}`, `B${String(i).padStart(8, '0')}`, String(4_000_000_000 + i), i % 2 ? '男' : '女', birth, '在读']).commit();
}
sheet.commit();
await writer.commit();
const fileBytes = (await stat(file)).size;

const before = (await db.select({ n: count() }).from(schema.students))[0]!.n;
/** Wall time, this process's CPU time (engine + reader; a busy machine stretches the first, hardly the second) and memory peaks. */
const timed = async <T>(work: () => Promise<T>): Promise<[T, string]> => {
  peakRss = 0;
  peakHeap = 0;
  const started = performance.now();
  const cpu = process.cpuUsage();
  const result = await work();
  const seconds = (performance.now() - started) / 1000;
  const { user: cpuUser, system } = process.cpuUsage(cpu);
  const figures = `${seconds.toFixed(1)} s  ${Math.round(rows / seconds).toLocaleString('en-US')} rows/s  node CPU ${((cpuUser + system) / 1e6).toFixed(1)} s  peak RSS ${mb(peakRss)}, heap ${mb(peakHeap)}`;
  return [result, figures];
};
const [preview, previewFigures] = await timed(() => previewImport(ctx, file));
const [run, importFigures] = await timed(() => runImport(ctx, file, { skipInvalid: false, fileName: 'students.xlsx' }));
const after = (await db.select({ n: count() }).from(schema.students))[0]!.n;
clearInterval(sampler);
// The Overview's per-school counts (school_stock_counts, kept by statement triggers) must follow the import.
const kept = (await db.execute(sql`select coalesce(sum(students), 0)::int as students, coalesce(sum(parents), 0)::int as parents from school_stock_counts`)) as unknown as { rows: { students: number; parents: number }[] };
const counted = (await db.execute(sql`select (select count(*) from students)::int as students, (select count(*) from parents)::int as parents`)) as unknown as { rows: { students: number; parents: number }[] };
const stock = `students ${kept.rows[0]!.students} / ${counted.rows[0]!.students}, parents ${kept.rows[0]!.parents} / ${counted.rows[0]!.parents}`;

const where = databaseUrl ? `PostgreSQL ${new URL(databaseUrl).pathname.slice(1)}` : 'PGlite in memory';
console.log(`bench:import — ${rows.toLocaleString('en-US')} students into ${schoolRows.length} schools of agent1, ${where}`);
console.log(`  workbook            ${mb(fileBytes)} (.xlsx, shared strings)`);
console.log(`  dry run (preview)   ${previewFigures}  valid ${preview.valid}, invalid ${preview.invalid}`);
console.log(`  import (one tx)     ${importFigures}  written ${run.ids.length} (table ${before} → ${after})`);
console.log(`  school_stock_counts ${stock} (kept / counted): ${kept.rows[0]!.students === counted.rows[0]!.students && kept.rows[0]!.parents === counted.rows[0]!.parents ? 'ok' : 'MISMATCH'}`);
console.log(`  load average        ${loadavg().map((n) => n.toFixed(2)).join(' ')}`);

await rm(folder, { recursive: true, force: true });
await handle.close();
