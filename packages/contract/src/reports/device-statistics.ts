/**
 * The two reports over devices: stock by product model and state (productStatistics), and devices
 * stocked / shipped / installed over time by agent (warehousingStatistics). Their sources, in
 * apps/server/src/reports/, read the device rollups (docs/decisions.md "Device reports read rollups").
 */
import type { FieldDef } from '../resources/define.js';
import { DEVICE_STATE_OPTIONS, DEVICE_TYPE_OPTIONS } from '../resources/device.js';
import { schoolRef } from '../resources/common.js';
import { agentFilter, defineReport } from './define.js';

const modelFilter: FieldDef = { kind: 'reference', family: 'DeviceClass', key: 'code', display: 'name', label: { zh: '单品', en: 'Product model' }, filter: 'equals' };
const schoolFilter = schoolRef({ required: false });

/** One measure per device state, in the order of the states. */
const stateMeasures = {
  inStock: { kind: 'count', label: { zh: '在库', en: 'In stock' }, color: '#1677ff' },
  delivered: { kind: 'count', label: { zh: '已发货', en: 'Delivered' }, color: '#fa8c16' },
  installed: { kind: 'count', label: { zh: '已安装', en: 'Installed' }, color: '#52c41a' },
  inRepair: { kind: 'count', label: { zh: '返修', en: 'In repair' }, color: '#f5222d' },
  scrapped: { kind: 'count', label: { zh: '报废', en: 'Scrapped' }, color: '#8c8c8c' },
} as const;

/** The device state each state measure counts (DEVICE_STATE_OPTIONS). */
export const DEVICE_STATE_MEASURES: Readonly<Record<keyof typeof stateMeasures, number>> = { inStock: 1, delivered: 2, installed: 3, inRepair: 4, scrapped: 5 };
if (DEVICE_STATE_OPTIONS.length !== Object.keys(DEVICE_STATE_MEASURES).length) throw new Error('a device state has no measure in DeviceStatistics');

/** productStatistics: how many devices of each product model are in each state, today. */
export const DeviceStatistics = defineReport({
  name: 'DeviceStatistics',
  label: { zh: '产品统计', en: 'Product statistics' },
  views: [{ frame: 'productStatistics' }],
  filters: {
    deviceType: { kind: 'enum', options: DEVICE_TYPE_OPTIONS, label: { zh: '类型', en: 'Type' }, filter: 'equals' },
    deviceClassCode: modelFilter,
    schoolId: schoolFilter,
    agentId: agentFilter,
    province: { kind: 'region', part: 'province', label: { zh: '省', en: 'Province' }, filter: 'equals' },
    city: { kind: 'region', part: 'city', label: { zh: '市', en: 'City' }, filter: 'equals' },
  },
  dimensions: {
    deviceClassCode: { kind: 'reference', family: 'DeviceClass', label: { zh: '单品', en: 'Product model' } },
  },
  measures: { ...stateMeasures, total: { kind: 'count', label: { zh: '合计', en: 'All states' } } },
  chart: { type: 'bar', x: 'deviceClassCode', series: 'measures', measures: Object.keys(stateMeasures), stacked: true },
  defaultSort: { field: 'total', order: 'desc' },
  scope: { via: 'school', field: 'schoolId' },
});

/** warehousingStatistics: devices entering stock, shipped and installed per day, week or month, by agent. */
export const WarehouseStatistics = defineReport({
  name: 'WarehouseStatistics',
  label: { zh: '出入库统计', en: 'Warehousing statistics' },
  views: [{ frame: 'warehousingStatistics' }],
  filters: {
    day: { kind: 'date', label: { zh: '日期', en: 'Date' }, filter: 'range' },
    agentId: agentFilter,
    deviceClassCode: modelFilter,
    schoolId: schoolFilter,
  },
  period: { field: 'day', grains: ['day', 'week', 'month'], defaultGrain: 'month', defaultMonths: 12 },
  dimensions: {
    period: { kind: 'period', label: { zh: '时间', en: 'Period' } },
    agentId: { kind: 'reference', family: 'User', label: { zh: '代理商', en: 'Agent' } },
  },
  measures: {
    stocked: { kind: 'count', label: { zh: '入库', en: 'Stocked' }, color: '#1677ff' },
    shipped: { kind: 'count', label: { zh: '出库', en: 'Shipped' }, color: '#fa8c16' },
    installed: { kind: 'count', label: { zh: '安装', en: 'Installed' }, color: '#52c41a' },
  },
  chart: { type: 'line', x: 'period', series: 'measures', measures: ['stocked', 'shipped', 'installed'] },
  defaultSort: { field: 'period', order: 'desc' },
  scope: { via: 'school', field: 'schoolId' },
});
