/**
 * userTemperature (issue 9): fever alerts — recognitions whose body temperature reached the fever
 * threshold when they arrived. A small log family of its own, filled by a trigger on the insert of
 * recognition_records (migration `*_recognition-rollups.sql`): fevers are a few in ten thousand
 * records, so their page, filters, badge and export read a table of alerts instead of skipping
 * through millions of records (docs/decisions.md "Fever alerts are a log fed by the recognition insert").
 */
import { z } from 'zod';
import { defineResource } from './define.js';
import { schoolRef } from './common.js';
import { RECOGNITION_DIRECTION_OPTIONS, RECOGNITION_PERSON_KIND_OPTIONS } from './recognition.js';

/** The settings key of the fever threshold (℃), and its bounds: a company user may set it within them. */
export const FEVER_THRESHOLD_KEY = 'feverThreshold';
export const DEFAULT_FEVER_THRESHOLD = 37.3;
export const FEVER_THRESHOLD_MIN = 37.0;
export const FEVER_THRESHOLD_MAX = 39.0;

/** Body of SaveThreshold and answer of GetThreshold: the fever threshold in ℃ (stored to one decimal). */
export const feverThresholdSchema = z.object({
  threshold: z.number().min(FEVER_THRESHOLD_MIN).max(FEVER_THRESHOLD_MAX),
});
export type FeverThreshold = z.infer<typeof feverThresholdSchema>;

export const FeverAlert = defineResource({
  name: 'FeverAlert',
  label: { zh: '体温异常', en: 'Temperature alert' },
  table: 'fever_alerts',
  views: [{ frame: 'userTemperature' }],
  scope: { via: 'school', field: 'schoolId' },
  mode: 'log',
  log: { timeField: 'recognizedAt', defaultDays: 7, retentionDays: 400 },
  titleField: 'personName',
  fields: {
    recognizedAt: { kind: 'datetime', label: { zh: '识别时间', en: 'Recognised at' }, required: true, filter: 'range', width: 170 },
    snapshot: { kind: 'image', label: { zh: '抓拍', en: 'Snapshot' }, width: 90, exported: false },
    personName: { kind: 'text', label: { zh: '姓名', en: 'Name' }, max: 50, filter: 'name', width: 120 },
    personKind: { kind: 'enum', options: RECOGNITION_PERSON_KIND_OPTIONS, label: { zh: '人员类型', en: 'Person type' }, required: true, filter: 'equals', width: 110 },
    personId: { kind: 'number', label: { zh: '人员编号', en: 'Person id' }, list: false },
    schoolId: schoolRef(),
    deviceId: { kind: 'reference', family: 'Device', display: 'serialNumber', within: 'schoolId', label: { zh: '设备', en: 'Device' }, required: true, filter: 'equals', width: 150 },
    direction: { kind: 'enum', options: RECOGNITION_DIRECTION_OPTIONS, label: { zh: '方向', en: 'Direction' }, required: true, width: 80 },
    temperature: { kind: 'number', integer: false, min: 30, max: 45, label: { zh: '体温(℃)', en: 'Temperature (°C)' }, required: true, width: 110 },
    // The threshold in force when the record arrived: raising it later leaves earlier alerts as they were.
    threshold: { kind: 'number', integer: false, label: { zh: '阈值(℃)', en: 'Threshold (°C)' }, required: true, width: 100 },
    recognitionId: { kind: 'number', label: { zh: '识别记录编号', en: 'Recognition id' }, required: true, list: false },
    acknowledged: { kind: 'bool', label: { zh: '已确认', en: 'Acknowledged' }, filter: 'equals', defaultValue: false, width: 90 },
    acknowledgedBy: { kind: 'reference', family: 'User', display: 'name', label: { zh: '确认人', en: 'Acknowledged by' }, readOnly: true, width: 120 },
    acknowledgedAt: { kind: 'datetime', label: { zh: '确认时间', en: 'Acknowledged at' }, readOnly: true, width: 170 },
  },
  actions: [
    {
      verb: 'Acknowledge',
      button: 'examine',
      label: { zh: '确认', en: 'Acknowledge' },
      confirm: { zh: '确认已处理该体温异常？', en: 'Mark this temperature alert as handled?' },
      offeredWhen: { acknowledged: false },
    },
  ],
});
