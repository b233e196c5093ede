/**
 * Source of operationLog (OpsDailyReport): per business day and school, one list of what the
 * platform recorded — offline periods (terminals/offline-periods.ts) by the day they started, failed
 * recognitions (`success = false`), error lines the terminals reported through the intake, tickets
 * opened (created) and closed (moved to Done or Closed from an open state, from the workflow's
 * history) — grouped. Each part reads its table by time (and school) over the range; what counts is
 * written in docs/decisions.md "What the ops daily report counts".
 */
import { MAINTENANCE_TICKET_DONE_STATES, OpsDailyReport } from '@campus/contract';
import { sql, type SQL } from 'drizzle-orm';
import { schools } from '../db/schema/index.js';
import { defineReportSource, inScope, periodStartSql, type ReportQuery } from './source.js';

const KIND = { offline: 1, failed: 2, deviceError: 3, opened: 4, closed: 5 } as const;
const businessDay = (column: SQL) => sql`(${column} at time zone 'Asia/Shanghai')::date`;

/** Every counted row of the range in the caller's scope: (kind, day, school, terminal, minutes). */
function eventsOf(query: ReportQuery): SQL {
  const { period, filters } = query;
  if (!period) throw new Error('OpsDailyReport is declared with a period');
  const from = sql`(${period.from}::date)::timestamp at time zone 'Asia/Shanghai'`;
  const to = sql`(${period.to}::date + 1)::timestamp at time zone 'Asia/Shanghai'`;
  const where = (time: SQL, school: SQL) => {
    const conditions = [sql`${time} >= ${from} and ${time} < ${to}`, inScope(query, school)];
    if (filters.schoolId !== undefined) conditions.push(sql`${school} = ${filters.schoolId}`);
    if (filters.agentId !== undefined) conditions.push(sql`${school} in (select id from ${schools} where agent_id = ${filters.agentId})`);
    return sql.join(conditions, sql` and `);
  };
  const doneStates = `{${MAINTENANCE_TICKET_DONE_STATES.join(',')}}`;
  return sql`
    select ${KIND.offline}::int as kind, ${businessDay(sql`p.started_at`)} as day, p.school_id, p.terminal_id,
      -- A period still open counts up to now.
      extract(epoch from coalesce(p.ended_at, now()) - p.started_at) / 60 as minutes
    from terminal_offline_periods p where ${where(sql`p.started_at`, sql`p.school_id`)}
    union all
    select ${KIND.failed}, ${businessDay(sql`r.recognized_at`)}, r.school_id, null, 0
    from recognition_records r where r.success = false and ${where(sql`r.recognized_at`, sql`r.school_id`)}
    union all
    select ${KIND.deviceError}, ${businessDay(sql`l.logged_at`)}, l.school_id, null, 0
    from terminal_logs l where l.level = 'error' and ${where(sql`l.logged_at`, sql`l.school_id`)}
    union all
    select ${KIND.opened}, ${businessDay(sql`m.created_at`)}, m.school_id, null, 0
    from maintenance_tickets m where ${where(sql`m.created_at`, sql`m.school_id`)}
    union all
    select ${KIND.closed}, ${businessDay(sql`h.created_at`)}, m.school_id, null, 0
    from state_history h join maintenance_tickets m on m.id = h.row_id
    where h.family = 'MaintenanceTicket' and h.to_state = any(${doneStates}::text[])
      and (h.from_state is null or not h.from_state = any(${doneStates}::text[])) and ${where(sql`h.created_at`, sql`m.school_id`)}`;
}

const KEYS: Record<string, (query: ReportQuery) => SQL> = {
  period: (query) => sql`${periodStartSql(sql`e.day`, query.period!.grain)} as "period"`,
  schoolId: () => sql`e.school_id as "schoolId"`,
};

export const opsDailyReport = defineReportSource(OpsDailyReport, {
  grouped(query) {
    const keys = query.groupBy.map((name) => KEYS[name]!(query));
    const groupBy = keys.length > 0 ? sql.raw(`group by ${keys.map((_, i) => i + 1).join(', ')}`) : sql``;
    const counted = (kind: number) => sql`count(*) filter (where e.kind = ${kind})::int`;
    return sql`select ${sql.join(
      [
        ...keys,
        sql`count(distinct e.terminal_id) filter (where e.kind = ${KIND.offline})::int as "offlineDevices"`,
        sql`coalesce(round(sum(e.minutes) filter (where e.kind = ${KIND.offline})), 0)::int as "offlineMinutes"`,
        sql`${counted(KIND.failed)} as "failedRecognitions"`,
        sql`${counted(KIND.deviceError)} as "deviceErrors"`,
        sql`${counted(KIND.opened)} as "ticketsOpened"`,
        sql`${counted(KIND.closed)} as "ticketsClosed"`,
      ],
      sql`, `,
    )} from (${eventsOf(query)}) e ${groupBy}`;
  },
  labels(rows, query) {
    if (!query.groupBy.includes('schoolId')) return rows;
    return sql`select l.*, ${schools.schoolName} as "schoolIdLabel" from (${rows}) l left join ${schools} on ${schools.id} = l."schoolId"`;
  },
});
