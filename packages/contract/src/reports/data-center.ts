/**
 * DataCenter (issue 31): four trends over a date range on one page, each a report of its own (its
 * Search, GetSummary and Export) declared on the DataCenter frame, with the same filters so the page
 * draws one filter bar for all. Each reads a rollup the platform already keeps incrementally, never
 * the raw records (docs/decisions.md "DataCenter reads four existing rollups"); their sources are in
 * apps/server/src/reports/data-center.ts.
 */
import type { FieldDef } from '../resources/define.js';
import { schoolRef } from '../resources/common.js';
import { agentFilter, defineReport, type ReportDef } from './define.js';

const filters = {
  day: { kind: 'date', label: { zh: '日期', en: 'Date' }, filter: 'range' },
  province: { kind: 'region', part: 'province', label: { zh: '省', en: 'Province' }, filter: 'equals' },
  city: { kind: 'region', part: 'city', label: { zh: '市', en: 'City' }, filter: 'equals' },
  schoolId: schoolRef({ required: false }),
  agentId: agentFilter,
} satisfies Record<string, FieldDef>;

const dimensions = {
  period: { kind: 'period', label: { zh: '时间', en: 'Period' } },
  schoolId: { kind: 'reference', family: 'School', label: { zh: '学校', en: 'School' } },
} as const satisfies ReportDef['dimensions'];

/** What the four share: the page, its filters, the last 30 days by day, and the school scope. */
const shared = {
  views: [{ frame: 'DataCenter' }],
  filters,
  period: { field: 'day', grains: ['day', 'week', 'month'], defaultGrain: 'day', defaultMonths: 1, defaultDays: 30 },
  dimensions,
  defaultSort: { field: 'period', order: 'desc' },
  scope: { via: 'school', field: 'schoolId' },
} as const;

/** Recognitions at the gates and the children they found, per day (the attendance rollup). */
export const DataCenterRecognitions = defineReport({
  name: 'DataCenterRecognitions',
  label: { zh: '识别与到校', en: 'Recognitions and arrivals' },
  ...shared,
  measures: {
    recognitions: { kind: 'count', label: { zh: '识别次数', en: 'Recognitions' }, color: '#1677ff' },
    failed: { kind: 'count', label: { zh: '识别失败', en: 'Failed' }, color: '#f5222d' },
    present: { kind: 'count', label: { zh: '到校人次', en: 'Children present' }, color: '#52c41a' },
  },
  chart: { type: 'line', x: 'period', series: 'measures', measures: ['recognitions', 'failed', 'present'], pie: { by: 'schoolId', measure: 'recognitions' } },
});

/** What parents paid and what was refunded, per day (the transaction day rollup). */
export const DataCenterPayments = defineReport({
  name: 'DataCenterPayments',
  label: { zh: '收入与退款', en: 'Revenue and refunds' },
  ...shared,
  measures: {
    payments: { kind: 'count', label: { zh: '支付笔数', en: 'Payments' } },
    paid: { kind: 'money', label: { zh: '支付金额', en: 'Paid' }, color: '#1677ff' },
    refunds: { kind: 'count', label: { zh: '退款笔数', en: 'Refunds' } },
    refunded: { kind: 'money', label: { zh: '退款金额', en: 'Refunded' }, color: '#f5222d' },
    net: { kind: 'money', label: { zh: '净收入', en: 'Net' }, color: '#52c41a' },
  },
  chart: { type: 'bar', x: 'period', series: 'measures', measures: ['paid', 'refunded', 'net'], pie: { by: 'schoolId', measure: 'paid' } },
});

/** Parents who used the app, per day, week or month, new and returning (the app-use activity rollup). */
export const DataCenterAppActivity = defineReport({
  name: 'DataCenterAppActivity',
  label: { zh: '家长活跃', en: 'Active parents' },
  ...shared,
  measures: {
    active: { kind: 'count', label: { zh: '活跃家长', en: 'Active parents' }, color: '#1677ff' },
    newParents: { kind: 'count', label: { zh: '新用户', en: 'New' }, color: '#52c41a' },
    returning: { kind: 'count', label: { zh: '老用户', en: 'Returning' }, color: '#fa8c16' },
  },
  // A parent is new or returning in a period, never both: the two share the active parents out.
  chart: { type: 'line', x: 'period', series: 'measures', measures: ['active', 'newParents', 'returning'], pie: { by: 'measures', measures: ['newParents', 'returning'] } },
});

/** Devices stocked, shipped and installed, per day (the device day rollup). */
export const DataCenterDevices = defineReport({
  name: 'DataCenterDevices',
  label: { zh: '设备出入库与安装', en: 'Devices stocked, shipped, installed' },
  ...shared,
  measures: {
    stocked: { kind: 'count', label: { zh: '入库', en: 'Stocked' }, color: '#1677ff' },
    shipped: { kind: 'count', label: { zh: '出库', en: 'Shipped' }, color: '#fa8c16' },
    installed: { kind: 'count', label: { zh: '安装', en: 'Installed' }, color: '#52c41a' },
  },
  chart: { type: 'bar', x: 'period', series: 'measures', measures: ['stocked', 'shipped', 'installed'], pie: { by: 'schoolId', measure: 'installed' } },
});
