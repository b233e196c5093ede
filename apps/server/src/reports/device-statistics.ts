/**
 * Sources of productStatistics (DeviceStatistics) and warehousingStatistics (WarehouseStatistics):
 * both read the device rollups kept by triggers (db/schema/reports.ts), never the devices table, so
 * a million devices cost what a few thousand rollup rows do (docs/performance.md).
 */
import { DEVICE_STATE_MEASURES, DeviceStatistics, WarehouseStatistics } from '@campus/contract';
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { deviceAgentDayCounts, deviceClasses, deviceDayCounts, deviceStateCounts, schools, users } from '../db/schema/index.js';
import { defineReportSource, inScope, named, periodStartSql, type ReportQuery } from './source.js';

type Filters = ReportQuery['filters'];

/** Conditions of the filters both reports share, on a rollup's school and model columns. */
function sharedConditions(filters: Filters, rollup: { schoolId: SQLWrapper; deviceClassCode: SQLWrapper }): SQL[] {
  const conditions: SQL[] = [];
  if (filters.deviceClassCode !== undefined) conditions.push(sql`${rollup.deviceClassCode} = ${filters.deviceClassCode}`);
  if (filters.schoolId !== undefined) conditions.push(sql`${rollup.schoolId} = ${filters.schoolId}`);
  if (filters.agentId !== undefined) conditions.push(sql`${schools.agentId} = ${filters.agentId}`);
  return conditions;
}

const where = (conditions: SQL[]) => sql.join(conditions, sql` and `);

export const deviceStatisticsReport = defineReportSource(DeviceStatistics, {
  grouped({ filters, ...query }) {
    const c = deviceStateCounts;
    const conditions = [inScope({ filters, ...query }, c.schoolId), ...sharedConditions(filters, c)];
    if (filters.deviceType !== undefined) conditions.push(sql`${deviceClasses.type} = ${filters.deviceType}`);
    if (filters.province !== undefined) conditions.push(sql`${schools.province} = ${filters.province}`);
    if (filters.city !== undefined) conditions.push(sql`${schools.city} = ${filters.city}`);
    const perState = Object.entries(DEVICE_STATE_MEASURES).map(([measure, state]) => named(sql`coalesce(sum(${c.devices}) filter (where ${c.state} = ${state}), 0)::int`, measure));
    return sql`select ${named(c.deviceClassCode, 'deviceClassCode')}, ${named(sql`min(${deviceClasses.name})`, 'deviceClassCodeLabel')},
        ${sql.join(perState, sql`, `)}, ${named(sql`sum(${c.devices})::int`, 'total')}
      from ${c}
      left join ${deviceClasses} on ${deviceClasses.code} = ${c.deviceClassCode}
      left join ${schools} on ${schools.id} = ${c.schoolId}
      where ${where(conditions)}
      group by ${c.deviceClassCode}
      having sum(${c.devices}) <> 0`;
  },
});

export const warehouseStatisticsReport = defineReportSource(WarehouseStatistics, {
  grouped(query) {
    const { filters, period, groupBy } = query;
    if (!period) throw new Error('WarehouseStatistics is declared with a period');
    const byPeriod = groupBy.includes('period');
    const byAgent = groupBy.includes('agentId');
    // Company-wide and agent callers read the rollup per agent: a few agents hold hundreds of schools
    // each, so a three-year range reads many times fewer rows than per school (docs/performance.md).
    // A school filter, and callers whose scope is some schools (sales, external), read per school.
    const perAgent = filters.schoolId === undefined && (query.scope.kind === 'all' || query.scopeAgentId !== null);
    const rangeAndModel = (rollup: typeof deviceDayCounts | typeof deviceAgentDayCounts) => {
      const conditions = [sql`${rollup.day} between ${period.from} and ${period.to}`];
      if (filters.deviceClassCode !== undefined) conditions.push(sql`${rollup.deviceClassCode} = ${filters.deviceClassCode}`);
      return conditions;
    };
    const sums = (from: string) =>
      sql.raw(`sum(${from}stocked)::int as "stocked", sum(${from}shipped)::int as "shipped", sum(${from}installed)::int as "installed"`);
    const nonZero = (from: string) => sql.raw(`having sum(${from}stocked) <> 0 or sum(${from}shipped) <> 0 or sum(${from}installed) <> 0`);

    if (perAgent) {
      const a = deviceAgentDayCounts;
      const conditions = rangeAndModel(a);
      if (query.scopeAgentId !== null) conditions.push(sql`${a.agentId} = ${query.scopeAgentId}`);
      if (filters.agentId !== undefined) conditions.push(sql`${a.agentId} = ${filters.agentId}`);
      const keys: SQL[] = [];
      if (byPeriod) keys.push(named(periodStartSql(a.day, period.grain), 'period'));
      if (byAgent) keys.push(sql`${a.agentId} as agent_id`);
      const grouped = sql`select ${sql.join([...keys, sums('')], sql`, `)}
        from ${a} where ${where(conditions)} ${keys.length > 0 ? sql.raw(`group by ${keys.map((_, i) => i + 1).join(', ')}`) : sql``} ${nonZero('')}`;
      if (!byAgent) return grouped;
      // The agents' names are joined to the few groups, not to every rollup row; agent 0 is "none".
      return sql`select ${byPeriod ? sql`g."period",` : sql``} nullif(g.agent_id, 0) as "agentId", ${users.name} as "agentIdLabel",
          g."stocked", g."shipped", g."installed"
        from (${grouped}) g left join ${users} on ${users.id} = g.agent_id`;
    }

    const c = deviceDayCounts;
    const conditions = [...rangeAndModel(c), inScope(query, c.schoolId)];
    if (filters.schoolId !== undefined) conditions.push(sql`${c.schoolId} = ${filters.schoolId}`);
    if (!byAgent && filters.agentId === undefined) {
      // The chart's series over time need no agent: one pass over the rollup, no joins.
      const start = periodStartSql(c.day, period.grain);
      return sql`select ${byPeriod ? sql`${named(start, 'period')},` : sql``} ${sums('')}
        from ${c} where ${where(conditions)} ${byPeriod ? sql`group by 1` : sql``} ${nonZero('')}`;
    }
    // Days are summed per (period, school) before the schools and agents are joined: the joins then
    // run for a few thousand groups instead of every rollup row of the range (4× less work at 1M devices).
    const perSchool = sql`select ${byPeriod ? sql`${periodStartSql(c.day, period.grain)} as period,` : sql``} ${c.schoolId} as school_id,
        sum(${c.stocked}) as stocked, sum(${c.shipped}) as shipped, sum(${c.installed}) as installed
      from ${c} where ${where(conditions)} group by ${byPeriod ? sql`1, 2` : sql`1`}`;
    const columns: SQL[] = [];
    const keys: SQL[] = [];
    if (byPeriod) {
      columns.push(sql`g.period as "period"`);
      keys.push(sql`g.period`);
    }
    if (byAgent) {
      columns.push(named(schools.agentId, 'agentId'), named(sql`min(${users.name})`, 'agentIdLabel'));
      keys.push(sql`${schools.agentId}`);
    }
    const agentCondition = filters.agentId !== undefined ? sql`where ${schools.agentId} = ${filters.agentId}` : sql``;
    return sql`select ${sql.join([...columns, sums('g.')], sql`, `)}
      from (${perSchool}) g
      left join ${schools} on ${schools.id} = g.school_id
      left join ${users} on ${users.id} = ${schools.agentId}
      ${agentCondition}
      group by ${sql.join(keys, sql`, `)}
      ${nonZero('g.')}`;
  },
});
