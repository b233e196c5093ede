import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { FREE_MODES, idList } from './service.js';

/** A school's active bound parents by what they hold on a day. */
export interface SchoolParentFigures {
  parentsInService: number;
  parentsInTrial: number;
  parentsLapsed: number;
}

/**
 * The figures of the given schools on `today`, counted over active bindings (a parent of two children
 * counts once, by the best it holds): in service = a paid child or a free mode, in trial = a trial and
 * no paid child, lapsed = bound with neither. One grouped query over the schools' bindings.
 */
export async function schoolParentFigures(db: Executor, schoolIds: readonly number[], today: string): Promise<Map<number, SchoolParentFigures>> {
  const figures = new Map<number, SchoolParentFigures>();
  if (schoolIds.length === 0) return figures;
  const found = (await db.execute(sql`
    with held as (
      select r.school_id, r.parent_id,
        bool_or(coalesce(ss.service_to >= ${today}::date, false) or coalesce(c.enabled and c.mode in (${sql.raw(FREE_MODES.join(', '))}), false)) as paid,
        bool_or(coalesce(r.trial_to >= ${today}::date, false)) as trial
      from service_receivers r
      left join student_services ss on ss.student_id = r.student_id
      left join service_configs c on c.school_id = r.school_id
      where r.active and r.school_id in (${idList(schoolIds)})
      group by r.school_id, r.parent_id)
    select school_id as "schoolId", count(*) filter (where paid) as "inService", count(*) filter (where not paid and trial) as "inTrial",
      count(*) filter (where not paid and not trial) as lapsed
    from held group by school_id`)) as unknown as { rows: Record<string, unknown>[] };
  for (const row of found.rows) {
    figures.set(Number(row.schoolId), { parentsInService: Number(row.inService), parentsInTrial: Number(row.inTrial), parentsLapsed: Number(row.lapsed) });
  }
  return figures;
}
