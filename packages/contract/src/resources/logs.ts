/** The console's own logs, read through the log kind: login attempts and the operation log. */
import { LOGIN_OUTCOMES, LOGIN_OUTCOME_LABELS } from '../api/login-outcomes.js';
import { defineResource, type EnumOption, type FieldDef, type ResourceDef } from './define.js';

/** Every login attempt (login_attempts): company staff only, although agents hold jurisdictionManage. */
export const LoginLog = defineResource({
  name: 'LoginLog',
  label: { zh: '登录日志', en: 'Login log' },
  table: 'login_attempts',
  handWritten: true,
  views: [{ frame: 'jurisdictionManage' }],
  scope: { via: 'global' },
  userTypes: ['company'],
  mode: 'log',
  log: { timeField: 'createdAt', defaultDays: 7, retentionDays: 180 },
  titleField: 'loginName',
  fields: {
    createdAt: { kind: 'datetime', label: { zh: '时间', en: 'Time' }, readOnly: true, filter: 'range', width: 170 },
    loginName: { kind: 'text', label: { zh: '账号', en: 'Account' }, max: 64, filter: 'code', width: 160 },
    userId: { kind: 'reference', family: 'User', display: 'name', label: { zh: '用户', en: 'User' }, width: 140 },
    ip: { kind: 'text', label: { zh: 'IP 地址', en: 'IP address' }, max: 64, filter: 'code', width: 150 },
    userAgent: { kind: 'text', label: { zh: '客户端', en: 'User agent' }, max: 500, width: 260 },
    outcome: {
      kind: 'enum',
      label: { zh: '结果', en: 'Outcome' },
      filter: 'equals',
      width: 140,
      options: LOGIN_OUTCOMES.map((value) => ({ value, ...LOGIN_OUTCOME_LABELS[value] })),
    },
  },
});

/** The family names an operation-log row may carry, labelled as their declarations are. */
function familyOptions(families: readonly ResourceDef[]): EnumOption[] {
  return families.map((family) => ({ value: family.name, zh: family.label.zh, en: family.label.en }));
}

/**
 * The operation log (operation_log, written by every engine write). Its `family` filter lists the
 * declared families, so it is declared from that list (resources/index.ts) rather than importing it:
 * the list includes this module's exports.
 */
export function declareOperationLog(families: readonly ResourceDef[]) {
  return defineResource({
    name: 'OperationLog',
    label: { zh: '操作日志', en: 'Operation log' },
    table: 'operation_log',
    handWritten: true,
    views: [{ frame: 'mainOperationLog' }],
    scope: { via: 'global' },
    userTypes: ['company'],
    mode: 'log',
    log: { timeField: 'createdAt', defaultDays: 7, retentionDays: 365 },
    titleField: 'family',
    fields: {
      createdAt: { kind: 'datetime', label: { zh: '时间', en: 'Time' }, readOnly: true, filter: 'range', width: 170 },
      userId: { kind: 'reference', family: 'User', display: 'name', label: { zh: '操作人', en: 'Operator' }, filter: 'equals', width: 140 },
      family: { kind: 'enum', label: { zh: '对象', en: 'Record type' }, filter: 'equals', width: 140, options: familyOptions(families) },
      action: { kind: 'text', label: { zh: '操作', en: 'Action' }, max: 64, filter: 'equals', width: 140 },
      ids: { kind: 'number', multiple: true, label: { zh: '记录', en: 'Records' }, width: 200 },
      changes: { kind: 'json', label: { zh: '变更内容', en: 'Changes' }, list: false, exported: true },
      // Rows keep the raw ids they were written with; what those ids are called today is read with them
      // (apps/server/src/resources/operation-log.ts), so the log shows numbers and names as the lists do.
      labels: { kind: 'json', computed: true, label: { zh: '名称', en: 'Names' }, list: false, exported: false },
    },
  });
}

/** What an operation log entry's `labels` holds: the titles of its records and the names of referenced rows in its changes, by raw value. */
export interface OperationLogLabels {
  records?: Record<string, string>;
  values?: Record<string, Record<string, string>>;
}

/**
 * The fields an operation log entry of a family may name: the family's own, then the inputs of its
 * transitions and actions (an Assign's assignee and remark).
 */
export function loggedFieldsOf(def: Pick<ResourceDef, 'fields' | 'workflow' | 'actions'>): Record<string, FieldDef> {
  const fields: Record<string, FieldDef> = { ...def.fields };
  for (const step of [...(def.workflow?.transitions ?? []), ...(def.actions ?? [])]) {
    for (const [name, field] of Object.entries(step.fields ?? {})) fields[name] ??= field;
  }
  return fields;
}
