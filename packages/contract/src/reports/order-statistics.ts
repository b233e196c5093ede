/**
 * orderStatistics (issue 31): device orders (orderManage, agents order devices) and mall orders
 * (mallOrderManage, parents buy in the shop) over time, by agent and state. Its source, in
 * apps/server/src/reports/order-statistics.ts, groups the two order tables by their school and
 * created day (both indexed): orders are thousands, not millions.
 */
import type { EnumOption } from '../resources/define.js';
import { MALL_ORDER_STATE_OPTIONS } from '../resources/mall.js';
import { ORDER_STATE_OPTIONS } from '../resources/order.js';
import { schoolRef } from '../resources/common.js';
import { agentFilter, defineReport } from './define.js';

export const ORDER_KIND_DEVICE = 1;
export const ORDER_KIND_MALL = 2;
export const ORDER_KIND_OPTIONS = [
  { value: ORDER_KIND_DEVICE, zh: '设备订单', en: 'Device orders', color: 'blue' },
  { value: ORDER_KIND_MALL, zh: '商城订单', en: 'Mall orders', color: 'green' },
] as const satisfies readonly EnumOption[];

/** The state of either kind in one list: 100 + a device order's state, 200 + a mall order's. */
export const ORDER_STATISTICS_STATE_OPTIONS: readonly EnumOption[] = [
  ...ORDER_STATE_OPTIONS.map((o) => ({ value: 100 + o.value, zh: `设备·${o.zh}`, en: `Device · ${o.en}`, color: o.color })),
  ...MALL_ORDER_STATE_OPTIONS.map((o) => ({ value: 200 + o.value, zh: `商城·${o.zh}`, en: `Mall · ${o.en}`, color: o.color })),
];


export const OrderStatistics = defineReport({
  name: 'OrderStatistics',
  label: { zh: '订单统计', en: 'Order statistics' },
  views: [{ frame: 'orderStatistics' }],
  filters: {
    day: { kind: 'date', label: { zh: '下单日期', en: 'Order date' }, filter: 'range' },
    orderKind: { kind: 'enum', options: ORDER_KIND_OPTIONS, label: { zh: '订单类型', en: 'Order kind' }, filter: 'equals' },
    agentId: agentFilter,
    schoolId: schoolRef({ required: false }),
  },
  period: { field: 'day', grains: ['day', 'week', 'month'], defaultGrain: 'month', defaultMonths: 12 },
  dimensions: {
    period: { kind: 'period', label: { zh: '时间', en: 'Period' } },
    orderKind: { kind: 'enum', options: ORDER_KIND_OPTIONS, label: { zh: '订单类型', en: 'Order kind' } },
    agentId: { kind: 'reference', family: 'User', label: { zh: '代理商', en: 'Agent' } },
    state: { kind: 'enum', options: ORDER_STATISTICS_STATE_OPTIONS, label: { zh: '状态', en: 'State' } },
  },
  measures: {
    orders: { kind: 'count', label: { zh: '订单数', en: 'Orders' }, color: '#1677ff' },
    amount: { kind: 'money', label: { zh: '订单金额', en: 'Amount' }, color: '#52c41a' },
  },
  chart: { type: 'bar', x: 'period', series: 'orderKind', measures: ['orders'], stacked: true },
  defaultSort: { field: 'period', order: 'desc' },
  scope: { via: 'school', field: 'schoolId' },
});
