/**
 * The platform log (platLog): the server's own events (start, migrations applied, jobs run and what
 * they did, provider calls that failed, load shed) beside its warnings and errors, written by its
 * logger (apps/server/src/platform/platform-log-sink.ts) with the request id a failed call answered, so
 * a user's "request id 1f3c…" leads to the stack. Company staff only: stacks name the server's insides.
 */
import { defineResource } from './define.js';

export const PLATFORM_LOG_LEVEL_OPTIONS = [
  { value: 'info', zh: '事件', en: 'Event', color: 'blue' },
  { value: 'warn', zh: '警告', en: 'Warning', color: 'orange' },
  { value: 'error', zh: '错误', en: 'Error', color: 'red' },
] as const;

export const PLATFORM_LOG_PATHS = {
  /** The seed's named call: every line, as the family's Search. */
  all: '/api/Log/GetPlatformLogs',
  /** The seed's named call: errors only. */
  errors: '/api/Log/GetPlatformErrLogs',
} as const;

export const PlatformLog = defineResource({
  name: 'PlatformLog',
  label: { zh: '平台日志', en: 'Platform log' },
  table: 'platform_logs',
  views: [{ frame: 'platLog' }],
  scope: { via: 'global' },
  userTypes: ['company'],
  mode: 'log',
  log: {
    timeField: 'createdAt',
    defaultDays: 7,
    retentionDays: 30,
    aliases: [
      { path: PLATFORM_LOG_PATHS.all, verb: 'GetPlatformLogs' },
      { path: PLATFORM_LOG_PATHS.errors, verb: 'GetPlatformErrLogs', fixed: { level: 'error' } },
    ],
  },
  titleField: 'message',
  fields: {
    createdAt: { kind: 'datetime', label: { zh: '时间', en: 'Time' }, readOnly: true, filter: 'range', width: 170 },
    level: { kind: 'enum', options: PLATFORM_LOG_LEVEL_OPTIONS, label: { zh: '级别', en: 'Level' }, filter: 'equals', width: 90 },
    message: { kind: 'text', label: { zh: '消息', en: 'Message' }, filter: 'code', width: 300 },
    requestId: { kind: 'text', label: { zh: '请求编号', en: 'Request id' }, filter: 'equals', width: 150 },
    method: { kind: 'text', label: { zh: '方法', en: 'Method' }, width: 70 },
    route: { kind: 'text', label: { zh: '接口', en: 'Route' }, filter: 'code', width: 220 },
    statusCode: { kind: 'number', label: { zh: '状态码', en: 'Status' }, width: 80 },
    // An id, not a reference: a log line must never stop an account from being deleted.
    userId: { kind: 'number', label: { zh: '用户编号', en: 'User id' }, filter: 'equals', width: 90 },
    errorType: { kind: 'text', label: { zh: '错误类型', en: 'Error type' }, list: false },
    stack: { kind: 'textarea', label: { zh: '堆栈', en: 'Stack' }, list: false, exported: true },
  },
});
