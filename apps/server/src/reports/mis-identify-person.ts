/**
 * Source of misIdentifyPerson: groups the per-day rollup `recognition_person_misses` (kept by a
 * trigger on recognition_records), a few rows per person and day, never the records themselves.
 */
import { MIS_IDENTIFY_DEFAULT_DAYS, MisIdentifyPerson, RecognitionRecord, formatBusinessDate } from '@campus/contract';
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { recognitionPersonMisses, schools } from '../db/schema/index.js';
import type { DailyJob } from '../platform/daily-jobs.js';
import { defineReportSource, inScope, named } from './source.js';

const m = recognitionPersonMisses;

/** How each dimension is selected and grouped: a person is (school, kind, id); the name is the latest seen. */
const DIMENSIONS: Record<string, { select: SQL[]; groupBy: SQL[] }> = {
  personName: { select: [named(sql`(array_agg(${m.personName} order by ${m.lastAt} desc))[1]`, 'personName')], groupBy: [] },
  personKind: { select: [named(m.personKind, 'personKind')], groupBy: [sql`${m.personKind}`] },
  personId: { select: [named(sql`${m.personId}::text`, 'personId')], groupBy: [sql`${m.personId}`] },
  schoolId: { select: [named(m.schoolId, 'schoolId'), named(sql`min(${schools.schoolName})`, 'schoolIdLabel')], groupBy: [sql`${m.schoolId}`] },
};

export const misIdentifyPersonReport = defineReportSource(MisIdentifyPerson, {
  grouped(query) {
    const { filters, groupBy } = query;
    const conditions: SQL[] = [inScope(query, m.schoolId)];
    // Days by the database's clock, the one that stamped the records the rollup counts.
    const today = sql`(now() at time zone 'Asia/Shanghai')::date`;
    conditions.push(filters.dayFrom === undefined ? sql`${m.day} > ${today} - ${MIS_IDENTIFY_DEFAULT_DAYS}::int` : sql`${m.day} >= ${filters.dayFrom}::date`);
    if (filters.dayTo !== undefined) conditions.push(sql`${m.day} <= ${filters.dayTo}::date`);
    if (filters.schoolId !== undefined) conditions.push(sql`${m.schoolId} = ${filters.schoolId}`);
    if (filters.personKind !== undefined) conditions.push(sql`${m.personKind} = ${filters.personKind}`);
    // Grouped by the name alone (a chart's x), people of the same name add up; otherwise a person is one row.
    const keys = groupBy.flatMap((dimension) => (dimension === 'personName' && groupBy.length === 1 ? [sql`${m.personName}`] : DIMENSIONS[dimension]!.groupBy));
    const selects = groupBy.flatMap((dimension) => DIMENSIONS[dimension]!.select);
    return sql`select ${sql.join(selects, sql`, `)},
        ${named(sql`sum(${m.failed})::int`, 'failed')}, ${named(sql`sum(${m.lowSimilarity})::int`, 'lowSimilarity')},
        ${named(sql`sum(${m.failed} + ${m.lowSimilarity})::int`, 'total')},
        ${named(sql`to_char(max(${m.lastAt}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`, 'lastAt')},
        ${named(sql`(array_agg(${m.lastSnapshot} order by ${m.lastAt} desc))[1]`, 'lastSnapshot')}
      from ${m}
      left join ${schools} on ${schools.id} = ${m.schoolId}
      where ${sql.join(conditions, sql` and `)}
      ${keys.length > 0 ? sql`group by ${sql.join(keys, sql`, `)}` : sql``}`;
  },
});

/**
 * Days of the rollup kept: as long as the recognition records it counts (their partitions are
 * dropped past the same retention), so the report never counts misses whose records are gone.
 */
export const MIS_IDENTIFY_RETENTION_DAYS = RecognitionRecord.log.retentionDays;
/** Rollup rows per delete: short statements, so the intake's trigger never waits long on the purge. */
const PURGE_BATCH = 5000;

/** Deletes the rollup's days older than the retention (business days, Asia/Shanghai), in batches; answers how many rows. */
export async function purgeExpiredMisses(db: Database, now: Date, batchSize = PURGE_BATCH): Promise<number> {
  const firstKept = formatBusinessDate(new Date(now.getTime() - MIS_IDENTIFY_RETENTION_DAYS * 86_400_000));
  let purged = 0;
  for (;;) {
    const result = (await db.execute(sql`
      delete from ${m} where (day, school_id, person_kind, person_id) in (
        select day, school_id, person_kind, person_id from ${m} where day < ${firstKept}::date limit ${batchSize})
      returning day`)) as unknown as { rows: unknown[] };
    purged += result.rows.length;
    if (result.rows.length < batchSize) return purged;
  }
}

/** The daily purge of the misIdentifyPerson rollup past the recognition records' retention. */
export const misIdentifyRetentionJob: DailyJob = {
  name: 'mis-identify-retention',
  run: (db, now) => purgeExpiredMisses(db, now),
};
