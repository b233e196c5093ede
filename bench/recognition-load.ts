/**
 * Bulk recognition records for the benchmarks (seed:scale and bench:search share it): rows over the
 * last `days` days, written with INSERT … SELECT generate_series per million by loadLogRows (indexes
 * dropped and built once). 40 % fall in the ten first schools (five per agent: large schools whose
 * page 500 of a week exists), the rest over every school; each school's rows on one of its devices,
 * about 400 people per school (so a person has a history); 5 % failed (half of them unknown faces),
 * 0.2 % with a fever; event serials unique per device.
 */
import type { Database } from '@campus/server/src/db/client.js';
import { sql } from 'drizzle-orm';
import { loadLogRows } from './log-bench.js';

export const RECOGNITION_DAYS = 90;

const hashOf = (expr: string, salt: number) => `(abs(hashint8extended((${expr})::bigint, ${salt}) % 2147483647))`;
const array = (values: string[]) => `array['${values.join("','")}']`;
const SURNAMES = ['王', '李', '张', '刘', '陈', '杨', '赵', '黄', '周', '吴', '徐', '孙', '胡', '朱', '高', '林'];
const GIVEN = ['子涵', '欣怡', '梓萱', '一诺', '浩宇', '宇轩', '沐宸', '若汐', '思远', '嘉怡', '俊杰', '雨桐', '明轩', '诗涵', '天佑', '语嫣'];

/** Tops recognition_records up to `rows`; answers the rows it then holds. */
export async function loadRecognitions(db: Database, rows: number, days = RECOGNITION_DAYS): Promise<number> {
  // Every month of the range gets its partition first: rows never wait in the default partition.
  await db.execute(sql.raw(`select ensure_month_partitions('recognition_records', (now() - interval '${days} days')::date, now()::date)`));
  // A person is one of ~400 per school: the name follows from the person, as on a real roll.
  const person = `k * 1000 + ${hashOf('i', 6)} % 400 + 1`;
  const total = await loadLogRows(db, {
    table: 'recognition_records',
    rows,
    insertSql: (from, to) => `
      insert into recognition_records (recognized_at, school_id, device_id, person_kind, person_id, person_name, direction,
                                       similarity, temperature, event_serial, success, hidden, snapshot)
      select now() - (interval '1 second' * ((i::bigint * 7919) % (${days} * 86400))),
             g.schools[k], g.devices[k],
             case when is_unknown then 5 else (array[1, 1, 1, 1, 1, 1, 1, 1, 2, 3, 3, 4])[(${person}) % 12 + 1] end,
             case when is_unknown then null else ${person} end,
             case when is_unknown then null else (${array(SURNAMES)})[${hashOf(person, 7)} % 16 + 1] || (${array(GIVEN)})[${hashOf(person, 8)} % 16 + 1] end,
             1 + i % 2,
             case when failed then 40 + ${hashOf('i', 9)} % 40 else 85 + ${hashOf('i', 9)} % 15 end,
             case when ${hashOf('i', 11)} % 1000 < 2 then 37.5 + (${hashOf('i', 12)} % 15) / 10.0 else 36 + (${hashOf('i', 10)} % 13) / 10.0 end,
             i, not failed, false, '/uploads/recognition/' || i || '.jpg'
      from generate_series(${from}, ${to}) as i,
           (select array_agg(school_id order by school_id) as schools, array_agg(device_id order by school_id) as devices
            from (select distinct on (school_id) school_id, id as device_id from devices where school_id is not null order by school_id, id) d) g,
           lateral (select case when ${hashOf('i', 1)} % 100 < 40 then 1 + ${hashOf('i', 2)} % 10
                                else 1 + ${hashOf('i', 3)} % array_length(g.schools, 1) end as k,
                           ${hashOf('i', 4)} % 100 < 5 as failed) x,
           lateral (select failed and i % 2 = 0 as is_unknown) u`,
  });
  // The load skips triggers (loadLogRows): rollups the triggers keep are rebuilt from the rows once.
  const rebuild = (await db.execute(sql`select to_regproc('rebuild_recognition_rollups') is not null as present`)) as unknown as { rows: { present: boolean }[] };
  if (rebuild.rows[0]?.present) {
    const started = performance.now();
    await db.execute(sql`select rebuild_recognition_rollups()`);
    console.log(`recognition rollups rebuilt (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  }
  return total;
}
