/**
 * Attendance statistics (issue 31): schoolStatistics (SchoolStatistics, per school per day) and
 * stuMonthStatistic (DiscernStatistics, per student per month). Their sources, in
 * apps/server/src/reports/attendance-statistics.ts, read the attendance rollups a recurring job keeps
 * from the recognition records past a watermark (docs/decisions.md "Attendance rollups"), never the
 * records themselves. Days are business days (Asia/Shanghai) and school days follow the school's
 * calendar (holidayManage over the national one).
 */
import { schoolRef } from '../resources/common.js';
import { agentFilter, defineReport, type ReportDef } from './define.js';

/** A student whose first arrival of a school day is after this time (Asia/Shanghai) is late. */
export const ATTENDANCE_ARRIVAL_DEADLINE = '08:00';
/** A student whose last departure of a school day is before this time (Asia/Shanghai) left early. */
export const ATTENDANCE_EARLIEST_DEPARTURE = '16:00';


/** schoolStatistics: per school and day (or week, month) how many were expected, present, late, left early, absent. */
export const SchoolStatistics = defineReport({
  name: 'SchoolStatistics',
  label: { zh: '学校考勤统计', en: 'School attendance' },
  views: [{ frame: 'schoolStatistics' }],
  filters: {
    day: { kind: 'date', label: { zh: '日期', en: 'Date' }, filter: 'range' },
    schoolId: schoolRef({ required: false }),
    agentId: agentFilter,
  },
  period: { field: 'day', grains: ['day', 'week', 'month'], defaultGrain: 'day', defaultMonths: 1 },
  dimensions: {
    period: { kind: 'period', label: { zh: '时间', en: 'Period' } },
    schoolId: { kind: 'reference', family: 'School', label: { zh: '学校', en: 'School' } },
  },
  measures: {
    schoolDays: { kind: 'count', label: { zh: '上学日', en: 'School days' } },
    expected: { kind: 'count', label: { zh: '应到人次', en: 'Expected' }, color: '#1677ff' },
    present: { kind: 'count', label: { zh: '实到人次', en: 'Present' }, color: '#52c41a' },
    absent: { kind: 'count', label: { zh: '缺勤人次', en: 'Absent' }, color: '#f5222d' },
    late: { kind: 'count', label: { zh: '迟到人次', en: 'Late' }, color: '#faad14' },
    leftEarly: { kind: 'count', label: { zh: '早退人次', en: 'Left early' }, color: '#722ed1' },
    recognitions: { kind: 'count', label: { zh: '识别次数', en: 'Recognitions' } },
    failed: { kind: 'count', label: { zh: '识别失败', en: 'Failed recognitions' } },
  },
  chart: { type: 'line', x: 'period', series: 'measures', measures: ['expected', 'present', 'absent', 'late', 'leftEarly'] },
  defaultSort: { field: 'period', order: 'desc' },
  scope: { via: 'school', field: 'schoolId' },
});

/** stuMonthStatistic: per student and month, the days present, absent, late and left early. */
export const DiscernStatistics = defineReport({
  name: 'DiscernStatistics',
  label: { zh: '学生月度统计', en: 'Student monthly attendance' },
  views: [{ frame: 'stuMonthStatistic' }],
  filters: {
    day: { kind: 'date', label: { zh: '月份', en: 'Month' }, filter: 'range' },
    schoolId: schoolRef({ required: false }),
    studentId: { kind: 'reference', family: 'Student', display: 'name', label: { zh: '学生', en: 'Student' }, filter: 'equals' },
  },
  period: { field: 'day', grains: ['month'], defaultGrain: 'month', defaultMonths: 1 },
  dimensions: {
    period: { kind: 'period', label: { zh: '月份', en: 'Month' } },
    studentId: { kind: 'reference', family: 'Student', label: { zh: '学生', en: 'Student' } },
    schoolId: { kind: 'reference', family: 'School', label: { zh: '学校', en: 'School' } },
  },
  measures: {
    schoolDays: { kind: 'count', label: { zh: '上学日', en: 'School days' } },
    presentDays: { kind: 'count', label: { zh: '出勤天数', en: 'Days present' }, color: '#52c41a' },
    absentDays: { kind: 'count', label: { zh: '缺勤天数', en: 'Days absent' }, color: '#f5222d' },
    lateDays: { kind: 'count', label: { zh: '迟到天数', en: 'Days late' }, color: '#faad14' },
    leftEarlyDays: { kind: 'count', label: { zh: '早退天数', en: 'Days left early' }, color: '#722ed1' },
  },
  // Thousands of students a month: the table is the answer, the chart would read nothing.
  chart: { type: 'table', x: 'studentId', series: 'measures', measures: ['presentDays', 'absentDays', 'lateDays', 'leftEarlyDays'] },
  // By student: the rollup's key, so a page of the company's million students reads a few index rows.
  defaultSort: { field: 'studentId', order: 'asc' },
  scope: { via: 'school', field: 'schoolId' },
} satisfies ReportDef);
