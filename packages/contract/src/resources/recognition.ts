/**
 * Recognition records: what the gates and attendance machines saw (issue 9). A log family — rows come
 * from the terminals (intake, issue 9) and from the demo seed, never from a form — read on two pages,
 * identifySuccess and identifyWarn, as views of the one family fixed on `success`.
 */
import { defineResource, type EnumOption } from './define.js';
import { schoolRef } from './common.js';

/** Who the terminal recognised; `unknown` is a face it matched to no one of the school. */
export const RECOGNITION_PERSON_KIND_OPTIONS = [
  { value: 1, zh: '学生', en: 'Student', color: 'blue' },
  { value: 2, zh: '教师', en: 'Teacher', color: 'green' },
  { value: 3, zh: '家长', en: 'Parent', color: 'purple' },
  { value: 4, zh: '接送人', en: 'Pick-up person', color: 'cyan' },
  { value: 5, zh: '陌生人', en: 'Unknown', color: 'default' },
] as const satisfies readonly EnumOption[];

export const RECOGNITION_DIRECTION_OPTIONS = [
  { value: 1, zh: '进', en: 'In', color: 'green' },
  { value: 2, zh: '出', en: 'Out', color: 'orange' },
] as const satisfies readonly EnumOption[];

export const RecognitionRecord = defineResource({
  name: 'RecognitionRecord',
  label: { zh: '识别记录', en: 'Recognition record' },
  table: 'recognition_records',
  views: [
    { frame: 'identifySuccess', fixed: { success: true } },
    { frame: 'identifyWarn', fixed: { success: false } },
  ],
  scope: { via: 'school', field: 'schoolId' },
  mode: 'log',
  // Millions of rows a day across customers: one partition per month, whole months dropped past the
  // retention (a school year and a bit, so last year's same term can be compared).
  log: { timeField: 'recognizedAt', defaultDays: 7, hideField: 'hidden', retentionDays: 400, partition: 'month' },
  titleField: 'personName',
  fields: {
    recognizedAt: { kind: 'datetime', label: { zh: '识别时间', en: 'Recognised at' }, required: true, filter: 'range', width: 170 },
    snapshot: { kind: 'image', label: { zh: '抓拍', en: 'Snapshot' }, width: 90, exported: false },
    personName: { kind: 'text', label: { zh: '姓名', en: 'Name' }, max: 50, filter: 'name', width: 120 },
    personKind: { kind: 'enum', options: RECOGNITION_PERSON_KIND_OPTIONS, label: { zh: '人员类型', en: 'Person type' }, required: true, filter: 'equals', width: 110 },
    // The student's, teacher's, parent's or pick-up person's id, by `personKind`: no single family, so
    // no foreign key; null for an unknown face. The name above is a snapshot taken at recognition.
    // Filtered with the school (a person's history opened from their record): `(school, person, time)`.
    personId: { kind: 'number', label: { zh: '人员编号', en: 'Person id' }, list: false, filter: 'equals' },
    schoolId: schoolRef(),
    deviceId: { kind: 'reference', family: 'Device', display: 'serialNumber', within: 'schoolId', label: { zh: '设备', en: 'Device' }, required: true, filter: 'equals', width: 150 },
    direction: { kind: 'enum', options: RECOGNITION_DIRECTION_OPTIONS, label: { zh: '方向', en: 'Direction' }, required: true, filter: 'equals', width: 80 },
    similarity: { kind: 'number', integer: false, min: 0, max: 100, label: { zh: '相似度', en: 'Similarity' }, required: true, width: 90 },
    temperature: { kind: 'number', integer: false, min: 30, max: 45, label: { zh: '体温(℃)', en: 'Temperature (°C)' }, width: 110 },
    // The terminal's own serial number of the event: a retry of the same event repeats it (unique per device).
    eventSerial: { kind: 'number', label: { zh: '事件序号', en: 'Event serial' }, required: true, list: false },
    success: { kind: 'bool', label: { zh: '识别成功', en: 'Recognised' }, required: true, filter: 'equals', list: false },
    hidden: { kind: 'bool', label: { zh: '已隐藏', en: 'Hidden' }, filter: 'equals', defaultValue: false, list: false },
  },
  // Stored as (device, serial, recognizedAt): a partitioned table's unique index must hold the time.
  // A retried event repeats its recognizedAt with its serial, so the retry still collides and is dropped.
  uniqueIndexes: [['deviceId', 'eventSerial']],
  // An agent's scope holds hundreds of schools: `(school, …, time)` cannot give their rows in time
  // order, so its newest pages walk `(success, time, id)` backwards and keep the rows of the scope
  // (docs/performance.md "Recognition records at 5,000,000 rows"). Company-wide callers walk it too.
  indexes: [['success', 'recognizedAt', 'id']],
});
