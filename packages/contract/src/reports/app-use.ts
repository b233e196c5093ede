/**
 * The six app-use statistics (PRODUCT section 2, Operations): what the parent app reported about
 * itself (AppUseEvent), read from the rollups its job keeps (apps/server/src/parents/app-use.ts), and
 * the parents registered, activated and paying per school. FrequentStatistics (funStatistics) and
 * UserStatistics (userStatistics) are the seed's GETs of the same names.
 */
import type { FieldDef } from '../resources/define.js';
import { RELATION_OPTIONS, schoolRef } from '../resources/common.js';
import { GRADE_OPTIONS } from '../resources/people.js';
import { SCHOOL_TYPE_OPTIONS } from '../resources/school.js';
import { APP_OS_TYPE_OPTIONS, APP_TYPE_OPTIONS } from '../resources/versions.js';
import { agentFilter, defineReport } from './define.js';

const day: FieldDef = { kind: 'date', label: { zh: '日期', en: 'Date' }, filter: 'range' };
const schoolFilter = schoolRef({ required: false });
const province: FieldDef = { kind: 'region', part: 'province', label: { zh: '省', en: 'Province' }, filter: 'equals' };
const city: FieldDef = { kind: 'region', part: 'city', label: { zh: '市', en: 'City' }, filter: 'equals' };
const period = { kind: 'period', label: { zh: '时间', en: 'Period' } } as const;
const scope = { via: 'school', field: 'schoolId' } as const;

/** "Not known" (a parent without relation, a child without class) in the rollups' keys. */
const UNKNOWN = { value: 0, zh: '未知', en: 'Unknown' } as const;

/** uaStatistics: app sessions by OS, OS version, app and app version. */
export const UaStatistics = defineReport({
  name: 'UaStatistics',
  label: { zh: '终端类型统计', en: 'OS and version statistics' },
  views: [{ frame: 'uaStatistics' }],
  filters: {
    day,
    schoolId: schoolFilter,
    agentId: agentFilter,
    osType: { kind: 'enum', options: APP_OS_TYPE_OPTIONS, label: { zh: '系统', en: 'OS' }, filter: 'equals' },
    appType: { kind: 'enum', options: APP_TYPE_OPTIONS, label: { zh: 'App类型', en: 'App' }, filter: 'equals' },
  },
  // The range only: sessions are summed over it, with no time dimension.
  period: { field: 'day', grains: ['day'], defaultGrain: 'day', defaultMonths: 3 },
  dimensions: {
    osType: { kind: 'enum', options: APP_OS_TYPE_OPTIONS, label: { zh: '系统', en: 'OS' } },
    osVersion: { kind: 'text', label: { zh: '系统版本', en: 'OS version' } },
    appType: { kind: 'enum', options: APP_TYPE_OPTIONS, label: { zh: 'App类型', en: 'App' } },
    appVersion: { kind: 'text', label: { zh: 'App版本', en: 'App version' } },
  },
  measures: { sessions: { kind: 'count', label: { zh: '打开次数', en: 'Sessions' }, color: '#1677ff' } },
  chart: { type: 'bar', x: 'appVersion', series: 'osType', measures: ['sessions'], stacked: true },
  defaultSort: { field: 'sessions', order: 'desc' },
  scope,
});

/** userActTable: active parents per day, week or month (DAU / WAU / MAU), new and returning. */
export const UserActivity = defineReport({
  name: 'UserActivity',
  label: { zh: '用户活跃', en: 'User activity' },
  views: [{ frame: 'userActTable' }],
  filters: { day, schoolId: schoolFilter, agentId: agentFilter, province, city },
  period: { field: 'day', grains: ['day', 'week', 'month'], defaultGrain: 'day', defaultMonths: 1 },
  dimensions: { period },
  measures: {
    active: { kind: 'count', label: { zh: '活跃家长', en: 'Active parents' }, color: '#1677ff' },
    newParents: { kind: 'count', label: { zh: '新用户', en: 'New' }, color: '#52c41a' },
    returning: { kind: 'count', label: { zh: '老用户', en: 'Returning' }, color: '#fa8c16' },
  },
  chart: { type: 'line', x: 'period', series: 'measures', measures: ['active', 'newParents', 'returning'] },
  defaultSort: { field: 'period', order: 'desc' },
  scope,
});

/** userStyleStatistics: who the active parents are — relation to the child, grade, school type, area — per month. */
export const UserComposition = defineReport({
  name: 'UserComposition',
  label: { zh: '用户构成', en: 'User composition' },
  views: [{ frame: 'userStyleStatistics' }],
  filters: {
    day,
    schoolId: schoolFilter,
    agentId: agentFilter,
    province,
    city,
    schoolType: { kind: 'enum', options: SCHOOL_TYPE_OPTIONS, label: { zh: '学校类型', en: 'School type' }, filter: 'equals' },
  },
  period: { field: 'day', grains: ['month'], defaultGrain: 'month', defaultMonths: 1 },
  dimensions: {
    period,
    relation: { kind: 'enum', options: [...RELATION_OPTIONS, UNKNOWN], label: { zh: '与孩子关系', en: 'Relation to the child' } },
    grade: { kind: 'enum', options: [...GRADE_OPTIONS, UNKNOWN], label: { zh: '年级', en: 'Grade' } },
    schoolType: { kind: 'enum', options: SCHOOL_TYPE_OPTIONS, label: { zh: '学校类型', en: 'School type' } },
    province: { kind: 'text', label: { zh: '省', en: 'Province' } },
    city: { kind: 'text', label: { zh: '市', en: 'City' } },
  },
  measures: {
    active: { kind: 'count', label: { zh: '活跃家长', en: 'Active parents' }, color: '#1677ff' },
    newParents: { kind: 'count', label: { zh: '新用户', en: 'New' }, color: '#52c41a' },
  },
  chart: { type: 'pie', x: 'relation', series: 'measures', measures: ['active'] },
  defaultSort: { field: 'active', order: 'desc' },
  scope,
});

const functionFilter: FieldDef = { kind: 'text', label: { zh: '功能编码', en: 'Function code' }, max: 40, filter: 'equals' };
// A tile of appFunctionManage is named as there (by its code); a page of the app by its code.
const functionDimension = { kind: 'reference', family: 'AppFrame', label: { zh: '功能', en: 'Function' } } as const;
const functionMeasures = {
  uses: { kind: 'count', label: { zh: '使用次数', en: 'Uses' }, color: '#1677ff' },
  // Distinct parents per day, summed over the days: a parent using it on three days counts three.
  parentDays: { kind: 'count', label: { zh: '使用人次（人·天）', en: 'Parent-days' }, color: '#52c41a' },
} as const;

/** funStatistics: how often each function (tile or page) was used over the range. The seed's FrequentStatistics. */
export const FrequentStatistics = defineReport({
  name: 'FrequentStatistics',
  label: { zh: '功能统计', en: 'Function usage' },
  views: [{ frame: 'funStatistics' }],
  filters: { day, schoolId: schoolFilter, agentId: agentFilter, functionCode: functionFilter },
  period: { field: 'day', grains: ['day'], defaultGrain: 'day', defaultMonths: 1 },
  dimensions: { functionCode: functionDimension },
  measures: functionMeasures,
  chart: { type: 'bar', x: 'functionCode', series: 'measures', measures: ['uses', 'parentDays'] },
  defaultSort: { field: 'uses', order: 'desc' },
  scope,
});

/** functionalTrends: each function's use per day, week or month. */
export const FunctionTrends = defineReport({
  name: 'FunctionTrends',
  label: { zh: '功能趋势', en: 'Function trends' },
  views: [{ frame: 'functionalTrends' }],
  filters: { day, schoolId: schoolFilter, agentId: agentFilter, functionCode: functionFilter },
  period: { field: 'day', grains: ['day', 'week', 'month'], defaultGrain: 'day', defaultMonths: 1 },
  dimensions: { period, functionCode: functionDimension },
  measures: functionMeasures,
  chart: { type: 'line', x: 'period', series: 'functionCode', measures: ['uses'] },
  defaultSort: { field: 'period', order: 'desc' },
  scope,
});

/** userStatistics: parents registered, activated (used the app) and paying, per school and area. The seed's UserStatistics. */
export const UserStatistics = defineReport({
  name: 'UserStatistics',
  label: { zh: '用户统计', en: 'User statistics' },
  views: [{ frame: 'userStatistics' }],
  filters: { schoolId: schoolFilter, agentId: agentFilter, province, city },
  dimensions: {
    province: { kind: 'text', label: { zh: '省', en: 'Province' } },
    city: { kind: 'text', label: { zh: '市', en: 'City' } },
    schoolId: { kind: 'reference', family: 'School', label: { zh: '学校', en: 'School' } },
  },
  measures: {
    registered: { kind: 'count', label: { zh: '注册家长', en: 'Registered' }, color: '#1677ff' },
    activated: { kind: 'count', label: { zh: '已激活', en: 'Activated' }, color: '#52c41a' },
    paying: { kind: 'count', label: { zh: '付费家长', en: 'Paying' }, color: '#fa8c16' },
  },
  chart: { type: 'bar', x: 'city', series: 'measures', measures: ['registered', 'activated', 'paying'] },
  defaultSort: { field: 'registered', order: 'desc' },
  scope,
});
