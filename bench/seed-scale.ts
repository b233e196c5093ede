/**
 * Fills a database with realistic generated data for the benchmarks:
 *
 *   npm run seed:scale -- --students 1000000                                  # PGlite in ./data-bench
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/campus_bench npm run seed:scale -- --students 1000000
 *   ... --recognitions 10000000     # also recognition records over 90 days (again later: tops up to N)
 *   ... --payments 1000000          # also payments over 12 months, posted to the ledger, 2 % partly refunded (tops up too)
 *
 * 1,000 schools over the two demo agents and 20 sales people in 4 teams, 12 classes per school,
 * N students, 1.5 × N parents and 60,000 devices (scaled up above 1M students). It migrates, loads the
 * defaults and the demo accounts (the benchmark logs in as them), then inserts with
 * `INSERT ... SELECT generate_series` in batches, rebuilding each big table's secondary indexes once
 * after its load (much faster than maintaining them row by row), and ends with VACUUM ANALYZE.
 * A marker row in `settings` makes a second run with the same figures a no-op; other figures refuse.
 */
import { GRADE_OPTIONS } from '@campus/contract';
import { createDatabase, type Database, type DatabaseHandle } from '@campus/server/src/db/client.js';
import { migrateDatabase } from '@campus/server/src/db/migrate.js';
import { seedDefaults } from '@campus/server/src/seeds/defaults.js';
import { seedDemo } from '@campus/server/src/seeds/demo.js';
import { loadEnv } from '@campus/server/src/env.js';
import { advanceOverviewCounter } from '@campus/server/src/reports/overview-counter.js';
import { sql } from 'drizzle-orm';
import { parseArgs } from 'node:util';
import { PAYMENT_MONTHS, loadPayments } from './payment-load.js';
import { RECOGNITION_DAYS, loadRecognitions } from './recognition-load.js';

const MARKER_KEY = 'seed.scale';
const SCHOOLS = 1000;
const CLASSES_PER_SCHOOL = 12;
const SALES_PEOPLE = 20;
const TEAM_SIZE = 5;

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/**
 * The multiplier that scrambles `count` numbers: (d × stride) mod count is a permutation when the two
 * share no factor, and a stride near count × 0.618 (the golden ratio) sends neighbours far apart.
 */
function scrambleStride(count: number): number {
  let stride = Math.max(1, Math.round(count * 0.6180339887));
  while (gcd(stride, count) !== 1) stride += 1;
  return stride;
}

interface Plan {
  /** Recognition records to top up to (recognition-load.ts); not part of the marker's figures. */
  recognitions: number;
  /** Payments to top up to (payment-load.ts); not part of the marker's figures either. */
  payments: number;
  students: number;
  parents: number;
  devices: number;
  batch: number;
}

function readPlan(): Plan {
  const { values } = parseArgs({
    options: {
      students: { type: 'string', default: '100000' },
      devices: { type: 'string' },
      batch: { type: 'string' },
      recognitions: { type: 'string', default: '0' },
      payments: { type: 'string', default: '0' },
    },
  });
  const students = Number(values.students);
  if (!Number.isInteger(students) || students < 1000) throw new Error('--students must be an integer ≥ 1000');
  const devices = values.devices ? Number(values.devices) : Math.max(60_000, Math.round(students * 0.06));
  if (!Number.isInteger(devices) || devices < 0) throw new Error('--devices must be a non-negative integer');
  const batch = values.batch ? Number(values.batch) : 100_000;
  const recognitions = Number(values.recognitions);
  if (!Number.isInteger(recognitions) || recognitions < 0) throw new Error('--recognitions must be a non-negative integer');
  const payments = Number(values.payments);
  if (!Number.isInteger(payments) || payments < 0) throw new Error('--payments must be a non-negative integer');
  return { recognitions, payments, students, parents: Math.round(students * 1.5), devices, batch };
}

const started = performance.now();
const clock = () => `${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s`;
const log = (message: string) => console.log(`[${clock()}] ${message}`);

async function rows<T>(db: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

const run = (db: Database, text: string) => db.execute(sql.raw(text));

/**
 * Secondary indexes of a table (not those backing the primary key or unique constraints); they are
 * dropped before a bulk load and created again after it, inside the same transaction.
 */
async function secondaryIndexes(db: Database, table: string): Promise<{ name: string; definition: string }[]> {
  return rows(
    db,
    sql`select i.indexname as name, i.indexdef as definition from pg_indexes i
        where i.schemaname = 'public' and i.tablename = ${table}
          and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
  );
}

/** Loads `total` rows in batches of `plan.batch`; `insertBatch(from, to)` is a 1-based inclusive range. */
async function bulkLoad(handle: DatabaseHandle, table: string, total: number, plan: Plan, insertBatch: (from: number, to: number) => string): Promise<void> {
  const t0 = performance.now();
  await handle.db.transaction(async (tx) => {
    const db = tx as unknown as Database;
    if (handle.kind === 'postgres') {
      await run(db, `set local maintenance_work_mem = '512MB'`);
      await run(db, 'set local synchronous_commit = off');
    }
    const indexes = await secondaryIndexes(db, table);
    for (const index of indexes) await run(db, `drop index "${index.name}"`);
    for (let from = 1; from <= total; from += plan.batch) {
      const to = Math.min(total, from + plan.batch - 1);
      await run(db, insertBatch(from, to));
      const rate = Math.round(to / ((performance.now() - t0) / 1000));
      log(`${table}: ${to.toLocaleString('en')} / ${total.toLocaleString('en')} (${rate.toLocaleString('en')} rows/s)`);
    }
    const t1 = performance.now();
    for (const index of indexes) await run(db, index.definition);
    log(`${table}: ${indexes.length} secondary indexes rebuilt in ${((performance.now() - t1) / 1000).toFixed(1)} s`);
    await run(db, `select setval(pg_get_serial_sequence('${table}', 'id'), (select max(id) from "${table}"))`);
  });
  log(`${table}: ${total.toLocaleString('en')} rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

const sqlText = (value: string) => `'${value.replace(/'/g, "''")}'`;
const sqlArray = (values: readonly (string | number)[]) =>
  `array[${values.map((v) => (typeof v === 'number' ? String(v) : sqlText(v))).join(',')}]`;

// Common surnames repeat, as they do in a real roll (王, 李, 张 are each ~7 % of China).
const SURNAMES = ['王', '王', '王', '李', '李', '李', '张', '张', '张', '刘', '刘', '陈', '陈', '杨', '赵', '黄', '周', '吴', '徐', '孙', '胡', '朱', '高', '林', '何', '郭', '马', '罗', '梁', '宋', '郑', '谢', '韩', '唐', '冯', '于', '董', '萧', '程', '曹'];
const GIVEN = ['子涵', '欣怡', '梓萱', '一诺', '浩宇', '宇轩', '沐宸', '若汐', '思远', '嘉怡', '俊杰', '雨桐', '明轩', '诗涵', '天佑', '语嫣', '子墨', '梓涵', '浩然', '奕辰', '宇泽', '可馨', '佳琪', '思彤', '雨萱', '博文', '晨曦', '梦瑶', '锦程', '皓轩', '伟', '芳', '娜', '敏', '静', '磊', '洋', '勇', '艳', '杰', '涛', '明', '超', '霞', '平', '刚', '欣', '婷', '俊', '瑶'];
const REGIONS = [
  ['浙江省', '杭州市', '西湖区'], ['浙江省', '宁波市', '鄞州区'], ['江苏省', '南京市', '鼓楼区'], ['江苏省', '苏州市', '工业园区'],
  ['上海市', '上海市', '浦东新区'], ['北京市', '北京市', '海淀区'], ['广东省', '广州市', '天河区'], ['广东省', '深圳市', '南山区'],
  ['四川省', '成都市', '武侯区'], ['湖北省', '武汉市', '洪山区'], ['陕西省', '西安市', '雁塔区'], ['山东省', '青岛市', '市南区'],
  ['福建省', '厦门市', '思明区'], ['湖南省', '长沙市', '岳麓区'], ['河南省', '郑州市', '金水区'], ['安徽省', '合肥市', '蜀山区'],
];
const SCHOOL_KINDS = [
  { type: 1, suffix: '幼儿园' },
  { type: 2, suffix: '小学' },
  { type: 2, suffix: '实验小学' },
  { type: 3, suffix: '中学' },
  { type: 1, suffix: '双语幼儿园' },
  { type: 4, suffix: '培训中心' },
];

/**
 * A deterministic pseudo-random integer 0..2^31-2 from an integer expression: PostgreSQL's own 64-bit
 * integer hash with the salt as its seed, so different salts give independent values (a surname and
 * a given name drawn with two salts combine freely).
 */
const hash = (expr: string, salt: number) => `(abs(hashint8extended((${expr})::bigint, ${salt}) % 2147483647))`;

/**
 * Parent j's mobile: distinct for every j (3^18 is coprime with 10^9, so j ↦ j·3^18 mod 10^9 is a
 * permutation) yet unrelated to the row order, as real numbers are: with '15' || j the rows holding
 * "0023" lay every 10,000 ids and a phone-part search read 200k rows for page 1 (docs/performance.md).
 */
const parentPhone = (j: string) => `'15' || lpad(((${j})::bigint * 387420489 % 1000000000)::text, 9, '0')`;

async function seedSalesTeams(db: Database): Promise<void> {
  // sales1 (leader) and sales2 come from the demo with the first team; add sales3..sales20 and three teams.
  await run(
    db,
    `insert into users (login_name, password_hash, type, name, phone_num, company, seller_position, email)
     select 'sales' || n, (select password_hash from users where login_name = 'sales2'), 'sales', '销售' || n,
            '1380001' || lpad(n::text, 4, '0'), 'Campus Ops', case when (n - 1) % ${TEAM_SIZE} = 0 then 'leader' else 'member' end,
            'sales' || n || '@campus-ops.example'
     from generate_series(3, ${SALES_PEOPLE}) n
     on conflict (login_name) do nothing`,
  );
  await run(
    db,
    `insert into sales_teams (name, leader_id)
     select '销售' || t || '组', (select id from users where login_name = 'sales' || ((t - 1) * ${TEAM_SIZE} + 1))
     from generate_series(2, ${SALES_PEOPLE / TEAM_SIZE}) t
     on conflict (name) do nothing`,
  );
  await run(
    db,
    `with seller as (
       select u.id, n, case when n <= ${TEAM_SIZE} then (select min(id) from sales_teams)
                            else (select id from sales_teams where name = '销售' || ((n - 1) / ${TEAM_SIZE} + 1) || '组') end as team_id
       from generate_series(3, ${SALES_PEOPLE}) n join users u on u.login_name = 'sales' || n
     ), moved as (
       update users set sales_team_id = seller.team_id from seller where users.id = seller.id returning users.id
     )
     insert into sales_team_members (team_id, user_id, level)
     select team_id, id, case when (n - 1) % ${TEAM_SIZE} = 0 then 1 else 2 end from seller`,
  );
}

async function seedSchools(db: Database): Promise<void> {
  const [existing] = await rows<{ n: number }>(db, sql`select count(*)::int as n from schools`);
  const add = SCHOOLS - Number(existing?.n ?? 0);
  if (add <= 0) return;
  const regions = REGIONS.length;
  const kinds = SCHOOL_KINDS.length;
  await run(
    db,
    `with agents as (select array_agg(id order by login_name) a from users where login_name in ('agent1', 'agent2')),
          sellers as (select array_agg(id order by id) a, array_agg(sales_team_id order by id) t from users where type = 'sales')
     insert into schools (school_name, province, city, area, school_address, agent_id, school_type, license_key_required, license_mode,
                          state, examine_state, seller_id, sales_team_id, is_direct, contact_name, contact_phone, created_at, updated_at)
     select (${sqlArray(REGIONS.map((r) => r[1]!))})[n % ${regions} + 1] || '第' || n || (${sqlArray(SCHOOL_KINDS.map((k) => k.suffix))})[n % ${kinds} + 1],
            (${sqlArray(REGIONS.map((r) => r[0]!))})[n % ${regions} + 1],
            (${sqlArray(REGIONS.map((r) => r[1]!))})[n % ${regions} + 1],
            (${sqlArray(REGIONS.map((r) => r[2]!))})[n % ${regions} + 1],
            '教育路' || n || '号',
            agents.a[n % 2 + 1],
            (${sqlArray(SCHOOL_KINDS.map((k) => k.type))})[n % ${kinds} + 1],
            (array[0, 1, 1, 1, 2])[n % 5 + 1], (array[1, 1, 2])[n % 3 + 1],
            case when n % 50 = 0 then 0 else 1 end, case when n % 20 = 0 then 0 else 1 end,
            case when n % 4 = 0 then null else sellers.a[n % ${SALES_PEOPLE} + 1] end,
            case when n % 4 = 0 or n % 3 = 0 then null else sellers.t[n % ${SALES_PEOPLE} + 1] end,
            n % 10 = 0, '联系人' || n, '1391' || lpad(n::text, 7, '0'),
            now() - (${add} - n) * interval '1 day', now() - (${add} - n) * interval '1 day'
     from agents, sellers, generate_series(1, ${add}) n`,
  );
}

async function seedClasses(db: Database): Promise<void> {
  // Kindergartens: 3 grades × 4 classes; the others: 6 grades × 2 classes. Ids are computed, so that
  // students can point at "class k of the school at position p" without a lookup.
  const label = (values: readonly number[]) => sqlArray(values.map((v) => GRADE_OPTIONS.find((g) => g.value === v)!.zh));
  await run(
    db,
    `with s as (select id, school_type, row_number() over (order by id) - 1 as pos from schools),
          base as (select coalesce(max(id), 0) as b from school_classes)
     insert into school_classes (id, school_id, grade, class_name, head_teacher)
     select base.b + 1 + s.pos * ${CLASSES_PER_SCHOOL} + k, s.id,
            case when s.school_type = 1 then (array[2, 3, 4])[k / 4 + 1] else (array[11, 12, 13, 14, 15, 16])[k / 2 + 1] end,
            case when s.school_type = 1 then (${label([2, 3, 4])})[k / 4 + 1] || (k % 4 + 1) || '班'
                 else (${label([11, 12, 13, 14, 15, 16])})[k / 2 + 1] || (k % 2 + 1) || '班' end,
            (${sqlArray(SURNAMES)})[(s.pos + k) % ${SURNAMES.length} + 1] || '老师'
     from base, s, generate_series(0, ${CLASSES_PER_SCHOOL - 1}) k
     order by 1`,
  );
  await run(db, `select setval(pg_get_serial_sequence('school_classes', 'id'), (select max(id) from school_classes))`);
}

/** `--payments N`: tops payment_records up to N over 12 months, with their ledger entries, refunds and rollups. */
async function seedPayments(handle: DatabaseHandle, plan: Plan): Promise<void> {
  if (plan.payments === 0) return;
  const t0 = performance.now();
  const total = await loadPayments(handle.db, plan.payments, log);
  log(`payment_records: ${total.toLocaleString('en')} rows over ${PAYMENT_MONTHS} months (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
}

/** `--recognitions N`: tops recognition_records up to N rows over 90 days (the same figures again add nothing). */
async function seedRecognitions(handle: DatabaseHandle, plan: Plan): Promise<void> {
  if (plan.recognitions === 0) return;
  const t0 = performance.now();
  const total = await loadRecognitions(handle.db, plan.recognitions);
  log(`recognition_records: ${total.toLocaleString('en')} rows over ${RECOGNITION_DAYS} days (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  // The Overview's counter catches up as its job would from an empty mark (nothing else writes, so no
  // record needs to settle): bench:overview then reads the counter, not the records past its mark.
  const t1 = performance.now();
  const counted = await advanceOverviewCounter(handle.db, { settleSeconds: 0, batches: Number.MAX_SAFE_INTEGER });
  log(`recognition_hour_counts: ${counted.toLocaleString('en')} records counted (${((performance.now() - t1) / 1000).toFixed(1)} s)`);
  // The load's ids are scattered over 90 days, so the catch-up wrote every day's hours across the whole
  // table; a real intake's ids follow time and keep a day's rows together. Laid out as they would be.
  await handle.db.execute(sql`cluster recognition_hour_counts using recognition_hour_counts_day_school_id_hour_pk`);
  await handle.db.execute(sql`vacuum analyze recognition_hour_counts`);
}

async function main(): Promise<void> {
  const plan = readPlan();
  const env = loadEnv({ ...process.env, DATA_DIR: process.env.DATA_DIR ?? './data-bench' });
  const where = env.DATABASE_URL ? `PostgreSQL ${new URL(env.DATABASE_URL).pathname.slice(1)}` : `PGlite in ${env.DATA_DIR}`;
  log(`seeding ${where}: ${SCHOOLS} schools, ${plan.students.toLocaleString('en')} students, ${plan.parents.toLocaleString('en')} parents, ${plan.devices.toLocaleString('en')} devices`);
  const handle = await createDatabase(env);
  try {
    await migrateDatabase(handle, env.DATABASE_URL);
    await seedDefaults(handle.db);
    await seedDemo(handle.db);
    log('migrated; defaults and demo accounts present');
    const db = handle.db;

    const [marker] = await rows<{ value: Plan & { at: string } }>(db, sql`select value from settings where key = ${MARKER_KEY}`);
    if (marker) {
      const same = marker.value.students === plan.students && marker.value.devices === plan.devices;
      if (same) {
        log(`already seeded at ${marker.value.at} with these figures`);
        await seedRecognitions(handle, plan);
        await seedPayments(handle, plan);
        return;
      }
      throw new Error(
        `this database already holds scale data (${marker.value.students} students, ${marker.value.devices} devices, seeded ${marker.value.at}); ` +
          'drop it (or delete DATA_DIR) to seed other figures',
      );
    }
    const [count] = await rows<{ n: number }>(db, sql`select count(*)::int as n from students`);
    if (Number(count?.n) > 1000) throw new Error(`students already holds ${count?.n} rows that this command did not write; use an empty database`);

    await db.transaction(async (tx) => {
      const t = tx as unknown as Database;
      await seedSalesTeams(t);
      await seedSchools(t);
      await seedClasses(t);
    });
    log(`schools, sales teams and ${(SCHOOLS * CLASSES_PER_SCHOOL).toLocaleString('en')} classes ready`);

    // Positions (0..999) of schools and class ids follow from a student number, so parents can find
    // their child's school without a join: school position = hash(i) % 1000.
    const [bases] = await rows<{ s: number; p: number; d: number; c: number }>(
      db,
      sql`select (select coalesce(max(id), 0) from students)::int as s, (select coalesce(max(id), 0) from parents)::int as p,
                 (select coalesce(max(id), 0) from devices)::int as d,
                 (select min(id) from school_classes where id > (select coalesce(max(id), 0) from school_classes) - ${SCHOOLS * CLASSES_PER_SCHOOL})::int as c`,
    );
    const { s: studentBase, p: parentBase, d: deviceBase, c: classBase } = bases!;
    const schoolPos = (i: string) => `(${hash(i, 17)} % ${SCHOOLS})`;
    const schoolIds = `(select array_agg(id order by id) a from schools)`;
    const N = plan.students;
    const years = 3;

    await bulkLoad(handle, 'students', N, plan, (from, to) => `
      insert into students (id, school_id, class_id, name, student_no, card_no, gender, birth_date, state, created_at, updated_at)
      select ${studentBase} + i, sids.a[${schoolPos('i')} + 1],
             ${classBase} + ${schoolPos('i')} * ${CLASSES_PER_SCHOOL} + ${hash('i', 5)} % ${CLASSES_PER_SCHOOL},
             (${sqlArray(SURNAMES)})[${hash('i', 101)} % ${SURNAMES.length} + 1] || (${sqlArray(GIVEN)})[${hash('i', 211)} % ${GIVEN.length} + 1],
             'S' || lpad(i::text, 8, '0'), 'K' || lpad((${hash('i', 307)} % 1000000000)::text, 9, '0'),
             i % 2 + 1, date '2010-09-01' + (${hash('i', 401)} % 4000)::int,
             case when ${hash('i', 503)} % 100 < 90 then 1 when ${hash('i', 503)} % 100 < 96 then 2 else 3 end,
             now() - (${N} - i) * (interval '${years} years' / ${N}), now() - (${N} - i) * (interval '${years} years' / ${N})
      from ${schoolIds} sids, generate_series(${from}, ${to}) i`);

    // Parent j belongs to student ((j - 1) mod N) + 1: every student has one, half have a second.
    await bulkLoad(handle, 'parents', plan.parents, plan, (from, to) => `
      insert into parents (id, phone_num, name, school_id, relation, enabled, last_login_at, created_at, updated_at)
      select ${parentBase} + j, ${parentPhone('j')},
             (${sqlArray(SURNAMES)})[${hash('j', 601)} % ${SURNAMES.length} + 1] || (${sqlArray(GIVEN)})[${hash('j', 607)} % ${GIVEN.length} + 1],
             sids.a[${schoolPos(`((j - 1) % ${N}) + 1`)} + 1],
             case when j <= ${N} then j % 2 + 1 else (array[1, 2, 3, 4, 5, 6, 9])[j % 7 + 1] end,
             j % 40 <> 0,
             case when j % 3 = 0 then null else now() - (${hash('j', 613)} % 90) * interval '1 day' end,
             now() - (${plan.parents} - j) * (interval '${years} years' / ${plan.parents}), now() - (${plan.parents} - j) * (interval '${years} years' / ${plan.parents})
      from ${schoolIds} sids, generate_series(${from}, ${to}) j`);
    await bulkLoad(handle, 'parent_students', plan.parents, plan, (from, to) => `
      insert into parent_students (parent_id, student_id)
      select ${parentBase} + j, ${studentBase} + ((j - 1) % ${N}) + 1 from generate_series(${from}, ${to}) j`);

    const classes = await rows<{ code: string; sn_prefix: string; license_enabled: boolean }>(
      db,
      sql`select code, sn_prefix, license_enabled from device_classes order by id`,
    );
    if (classes.length === 0) throw new Error('no device classes: the demo seed should have added them');
    const D = plan.devices;
    // Serial numbers are 1..D in scrambled order: numbered in id order, the rows a serial part matches
    // sat in one id range, which flattered a serial search sorted by id.
    const serialStride = scrambleStride(D);
    await bulkLoad(handle, 'devices', D, plan, (from, to) => `
      insert into devices (id, serial_number, device_class_code, imei_or_mac, school_id, state, license_key, created_at, updated_at)
      select ${deviceBase} + d, (${sqlArray(classes.map((c) => c.sn_prefix))})[d % ${classes.length} + 1] || 'B' || lpad(((d::bigint * ${serialStride}) % ${D} + 1)::text, 7, '0'),
             (${sqlArray(classes.map((c) => c.code))})[d % ${classes.length} + 1],
             upper(regexp_replace(lpad(to_hex(${hash('d', 701)}::bigint * 16 + d % 16), 12, '0'), '(..)(?!$)', '\\1:', 'g')),
             case when in_stock then null else sids.a[${hash('d', 709)} % ${SCHOOLS} + 1] end,
             case when in_stock then 1 else (array[2, 3, 3, 3, 3, 3, 3, 4, 5])[${hash('d', 719)} % 9 + 1] end,
             case when (${sqlArray(classes.map((c) => (c.license_enabled ? 1 : 0)))})[d % ${classes.length} + 1] = 1 and d % 10 <> 0
                  then 'LIC-B' || lpad(d::text, 8, '0') end,
             now() - (${D} - d) * (interval '${years} years' / ${D}), now() - (${D} - d) * (interval '${years} years' / ${D})
      from ${schoolIds} sids, generate_series(${from}, ${to}) d, lateral (select ${hash('d', 727)} % 100 < 8 as in_stock) x`);

    await seedRecognitions(handle, plan);
    await seedPayments(handle, plan);
    const t0 = performance.now();
    await run(db, 'vacuum analyze');
    log(`vacuum analyze in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    await db.execute(
      sql`insert into settings (key, value) values (${MARKER_KEY}, ${JSON.stringify({ ...plan, at: new Date().toISOString() })}::jsonb)`,
    );
    const sizes = await rows<{ t: string; n: string; size: string }>(
      db,
      sql`select c.relname as t, c.reltuples::bigint::text as n, pg_size_pretty(pg_total_relation_size(c.oid)) as size
          from pg_class c where c.relname in ('schools', 'school_classes', 'students', 'parents', 'devices') order by c.relname`,
    );
    for (const s of sizes) log(`${s.t.padEnd(15)} ${Number(s.n).toLocaleString('en').padStart(11)} rows  ${s.size} with indexes`);
    log('done');
  } finally {
    await handle.close();
  }
}

main().catch((error: unknown) => {
  console.error(`seed:scale failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
