/**
 * Sources of productStatistics (DeviceStatistics) and warehousingStatistics (WarehouseStatistics):
 * both read the device rollups kept by triggers (db/schema/reports.ts), never the devices table, so
 * a million devices cost what a few thousand rollup rows do (docs/performance.md).
 */
import { DEVICE_STATE_MEASURES, DeviceStatistics, WarehouseStatistics } from '@campus/contract';
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { deviceClasses, deviceDayCounts, deviceStateCounts, schools, users } from '../db/schema/index.js';
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

defineReportSource(DeviceStatistics, {
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

defineReportSource(WarehouseStatistics, {
  grouped(query) {
    const { filters, period, groupBy } = query;
    if (!period) throw new Error('WarehouseStatistics is declared with a period');
    const c = deviceDayCounts;
    const conditions = [inScope(query, c.schoolId), sql`${c.day} between ${period.from} and ${period.to}`];
    if (filters.deviceClassCode !== undefined) conditions.push(sql`${c.deviceClassCode} = ${filters.deviceClassCode}`);
    if (filters.schoolId !== undefined) conditions.push(sql`${c.schoolId} = ${filters.schoolId}`);
    const byPeriod = groupBy.includes('period');
    const byAgent = groupBy.includes('agentId');
    if (!byAgent && filters.agentId === undefined) {
      // The chart's series over time need no agent: one pass over the rollup, no joins.
      const start = periodStartSql(c.day, period.grain);
      return sql`select ${byPeriod ? sql`${named(start, 'period')},` : sql``}
          ${named(sql`sum(${c.stocked})::int`, 'stocked')}, ${named(sql`sum(${c.shipped})::int`, 'shipped')}, ${named(sql`sum(${c.installed})::int`, 'installed')}
        from ${c} where ${where(conditions)} ${byPeriod ? sql`group by 1` : sql``}
        having sum(${c.stocked}) <> 0 or sum(${c.shipped}) <> 0 or sum(${c.installed}) <> 0`;
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
    return sql`select ${sql.join([...columns, sql`sum(g.stocked)::int as "stocked", sum(g.shipped)::int as "shipped", sum(g.installed)::int as "installed"`], sql`, `)}
      from (${perSchool}) g
      left join ${schools} on ${schools.id} = g.school_id
      left join ${users} on ${users.id} = ${schools.agentId}
      ${agentCondition}
      group by ${sql.join(keys, sql`, `)}
      having sum(g.stocked) <> 0 or sum(g.shipped) <> 0 or sum(g.installed) <> 0`;
  },
});
