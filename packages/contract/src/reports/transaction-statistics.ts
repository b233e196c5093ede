/**
 * The transaction summaries (TransactionStatistics): what parents paid, what was refunded, the net
 * and its split between the company, the agents and the schools, by day (transactionSummaryDay) or
 * by month (transactionSummaryMonth), school, agent, channel and charge item. Their sources, in
 * apps/server/src/reports/transaction-statistics.ts, read rollups the database keeps in the
 * transaction of every payment and refund (docs/decisions.md "Transaction summaries read rollups").
 * A payment counts on the day it was paid, a refund on the day it settled (Asia/Shanghai).
 */
import type { FieldDef } from '../resources/define.js';
import { PAYMENT_CHANNEL_OPTIONS } from '../resources/finance.js';
import { schoolRef } from '../resources/common.js';
import { agentFilter, defineReport, type ReportDef } from './define.js';


const filters = {
  day: { kind: 'date', label: { zh: '日期', en: 'Date' }, filter: 'range' },
  schoolId: schoolRef({ required: false }),
  agentId: agentFilter,
  channel: { kind: 'enum', options: PAYMENT_CHANNEL_OPTIONS, label: { zh: '支付渠道', en: 'Channel' }, filter: 'equals' },
  chargeItemId: { kind: 'reference', family: 'AppChargeItem', display: 'name', label: { zh: '收费项目', en: 'Charge item' }, filter: 'equals' },
} satisfies Record<string, FieldDef>;

const dimensions = {
  period: { kind: 'period', label: { zh: '时间', en: 'Period' } },
  schoolId: { kind: 'reference', family: 'School', label: { zh: '学校', en: 'School' } },
  agentId: { kind: 'reference', family: 'User', label: { zh: '代理商', en: 'Agent' } },
  channel: { kind: 'enum', options: PAYMENT_CHANNEL_OPTIONS, label: { zh: '支付渠道', en: 'Channel' } },
  chargeItemId: { kind: 'reference', family: 'AppChargeItem', label: { zh: '收费项目', en: 'Charge item' } },
} as const satisfies ReportDef['dimensions'];

/** The measures, each a column of the rollups; `net` is paid − refunded, the four shares (mall merchants' too) sum to it. */
const measures = {
  payments: { kind: 'count', label: { zh: '支付笔数', en: 'Payments' } },
  paid: { kind: 'money', label: { zh: '支付金额', en: 'Paid' }, color: '#1677ff' },
  refunds: { kind: 'count', label: { zh: '退款笔数', en: 'Refunds' } },
  refunded: { kind: 'money', label: { zh: '退款金额', en: 'Refunded' }, color: '#f5222d' },
  net: { kind: 'money', label: { zh: '净收入', en: 'Net' }, color: '#52c41a' },
  companyShare: { kind: 'money', label: { zh: '公司分账', en: 'Company share' } },
  agentShare: { kind: 'money', label: { zh: '代理商分账', en: 'Agent share' } },
  schoolShare: { kind: 'money', label: { zh: '学校分账', en: 'School share' } },
  merchantShare: { kind: 'money', label: { zh: '商户分账', en: 'Merchant share' } },
} as const satisfies ReportDef['measures'];

const shared = {
  filters,
  dimensions,
  measures,
  chart: { type: 'bar', x: 'period', series: 'measures', measures: ['paid', 'refunded', 'net'] },
  defaultSort: { field: 'period', order: 'desc' },
  scope: { via: 'school', field: 'schoolId' },
} as const;

/** transactionSummaryDay: the seed's TransactionStatistics, by business day. */
export const TransactionStatistics = defineReport({
  name: 'TransactionStatistics',
  label: { zh: '日交易汇总', en: 'Daily transactions' },
  views: [{ frame: 'transactionSummaryDay' }],
  // The current month by default: a day's rows per school, channel and item add up quickly.
  period: { field: 'day', grains: ['day'], defaultGrain: 'day', defaultMonths: 1 },
  ...shared,
});

/**
 * transactionSummaryMonth: the same figures by month, read from the month rollup; a range counts
 * every month it touches, whole.
 */
export const TransactionMonthStatistics = defineReport({
  name: 'TransactionMonthStatistics',
  label: { zh: '月交易汇总', en: 'Monthly transactions' },
  views: [{ frame: 'transactionSummaryMonth' }],
  period: { field: 'day', grains: ['month'], defaultGrain: 'month', defaultMonths: 12 },
  ...shared,
});
