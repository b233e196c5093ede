/**
 * What the parent app reports about itself (issue 31, "App use"): a session opened (OS, OS version,
 * app type and version, device model) or a function used (a tile of appFunctionManage or a page of the
 * app, by its code). Sent in batches through the channel (`POST /api/App/ReportUse`), kept as a log
 * per school for `retentionDays`, and rolled up per business day by a job (docs/parent-app.md); the
 * six app-use statistics read the rollups, never this log.
 */
import { schoolRef } from './common.js';
import { defineResource } from './define.js';
import { APP_OS_TYPE_OPTIONS, APP_TYPE_OPTIONS } from './versions.js';

export const APP_USE_KIND_OPTIONS = [
  { value: 1, zh: '打开App', en: 'Session', color: 'blue' },
  { value: 2, zh: '使用功能', en: 'Function use', color: 'green' },
] as const;

/** The kinds of an app-use event (APP_USE_KIND_OPTIONS). */
export const APP_USE_KIND = { session: 1, function: 2 } as const;

/** How far back the app may date an event it kept offline; older events are refused (400). */
export const APP_USE_MAX_AGE_DAYS = 7;
/** Events per batch, and batches per parent session and minute (HTTP 429 beyond). */
export const APP_USE_MAX_BATCH = 100;
export const APP_USE_CALLS_PER_MINUTE = 20;

export const AppUseEvent = defineResource({
  name: 'AppUseEvent',
  label: { zh: 'App使用日志', en: 'App use log' },
  table: 'app_use_events',
  views: [{ frame: 'appUseLog' }],
  scope: { via: 'school', field: 'schoolId' },
  mode: 'log',
  // Kept a quarter: the rollups keep the figures after the rows are gone.
  log: { timeField: 'occurredAt', defaultDays: 7, retentionDays: 90 },
  titleField: 'parentId',
  fields: {
    occurredAt: { kind: 'datetime', label: { zh: '时间', en: 'Time' }, readOnly: true, filter: 'range', width: 170 },
    parentId: { kind: 'reference', family: 'Parent', display: 'name', label: { zh: '家长', en: 'Parent' }, required: true, filter: 'equals', width: 120 },
    // The parent's school when the event arrived: what the statistics count it under.
    schoolId: schoolRef({ readOnly: true }),
    kind: { kind: 'enum', options: APP_USE_KIND_OPTIONS, label: { zh: '类型', en: 'Kind' }, required: true, filter: 'equals', width: 100 },
    functionCode: { kind: 'text', label: { zh: '功能', en: 'Function' }, max: 40, filter: 'equals', width: 130 },
    osType: { kind: 'enum', options: APP_OS_TYPE_OPTIONS, label: { zh: '系统', en: 'OS' }, width: 90 },
    osVersion: { kind: 'text', label: { zh: '系统版本', en: 'OS version' }, max: 20, width: 100 },
    appType: { kind: 'enum', options: APP_TYPE_OPTIONS, label: { zh: 'App类型', en: 'App' }, width: 100 },
    appVersion: { kind: 'text', label: { zh: 'App版本', en: 'App version' }, max: 20, width: 100 },
    deviceModel: { kind: 'text', label: { zh: '设备型号', en: 'Device model' }, max: 60, width: 140 },
    // The parent session that sent it (rate limit, and a session's functions read together).
    sessionId: { kind: 'number', label: { zh: '会话', en: 'Session' }, readOnly: true, list: false },
    createdAt: { kind: 'datetime', label: { zh: '接收时间', en: 'Received' }, readOnly: true, width: 170 },
  },
});
