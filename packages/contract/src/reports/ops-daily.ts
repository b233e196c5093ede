/**
 * operationLog (ops daily report, issue 31): per business day and school, what went wrong with the
 * terminals and what was done about it. Its source, apps/server/src/reports/ops-daily.ts, counts rows
 * the platform already keeps (docs/decisions.md "What the ops daily report counts"): the terminals'
 * offline periods, failed recognitions, the error lines the terminals reported, maintenance tickets.
 */
import { schoolRef } from '../resources/common.js';
import { agentFilter, defineReport } from './define.js';

export const OpsDailyReport = defineReport({
  name: 'OpsDailyReport',
  label: { zh: '运维日报', en: 'Ops daily report' },
  views: [{ frame: 'operationLog' }],
  filters: {
    day: { kind: 'date', label: { zh: '日期', en: 'Date' }, filter: 'range' },
    agentId: agentFilter,
    schoolId: schoolRef({ required: false }),
  },
  period: { field: 'day', grains: ['day', 'week', 'month'], defaultGrain: 'day', defaultMonths: 1 },
  dimensions: {
    period: { kind: 'period', label: { zh: '日期', en: 'Day' } },
    schoolId: { kind: 'reference', family: 'School', label: { zh: '学校', en: 'School' } },
  },
  measures: {
    offlineDevices: { kind: 'count', label: { zh: '离线设备', en: 'Devices offline' }, color: '#f5222d' },
    offlineMinutes: { kind: 'number', label: { zh: '离线时长(分钟)', en: 'Offline (minutes)' }, color: '#fa8c16' },
    failedRecognitions: { kind: 'count', label: { zh: '识别失败', en: 'Failed recognitions' }, color: '#faad14' },
    deviceErrors: { kind: 'count', label: { zh: '设备错误日志', en: 'Device errors' }, color: '#eb2f96' },
    ticketsOpened: { kind: 'count', label: { zh: '新建工单', en: 'Tickets opened' }, color: '#1677ff' },
    ticketsClosed: { kind: 'count', label: { zh: '完结工单', en: 'Tickets closed' }, color: '#52c41a' },
  },
  chart: { type: 'line', x: 'period', series: 'measures', measures: ['offlineDevices', 'failedRecognitions', 'deviceErrors', 'ticketsOpened', 'ticketsClosed'] },
  defaultSort: { field: 'period', order: 'desc' },
  scope: { via: 'school', field: 'schoolId' },
});
