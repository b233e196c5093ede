/**
 * Remote commands queued for a terminal (issue 9): an operator queues one, the device is handed it
 * with its next heartbeat and acknowledges it. Operators only queue and cancel; every other move is
 * the device's (or the expiry's), run by apps/server/src/terminals/commands.ts as system transitions.
 */
import { TERMINAL_COMMAND_KINDS, type TerminalCommandKind } from '../api/terminal-intake.js';
import { schoolRef } from './common.js';
import { defineResource, type EnumOption, type Label } from './define.js';

export const TERMINAL_COMMAND_STATES = {
  QUEUED: 1,
  SENT: 2,
  DELIVERED: 3,
  SUCCEEDED: 4,
  FAILED: 5,
  EXPIRED: 6,
  CANCELLED: 7,
} as const;

const S = TERMINAL_COMMAND_STATES;

export const TERMINAL_COMMAND_STATE_OPTIONS = [
  { value: S.QUEUED, zh: '排队中', en: 'Queued', color: 'default' },
  { value: S.SENT, zh: '已下发', en: 'Sent', color: 'processing' },
  { value: S.DELIVERED, zh: '已送达', en: 'Delivered', color: 'blue' },
  { value: S.SUCCEEDED, zh: '执行成功', en: 'Succeeded', color: 'green' },
  { value: S.FAILED, zh: '执行失败', en: 'Failed', color: 'red' },
  { value: S.EXPIRED, zh: '已过期', en: 'Expired', color: 'orange' },
  { value: S.CANCELLED, zh: '已取消', en: 'Cancelled', color: 'default' },
] as const;

const KIND_LABELS: Record<TerminalCommandKind, Label> = {
  reboot: { zh: '重启', en: 'Reboot' },
  syncFaces: { zh: '同步人脸库', en: 'Sync face library' },
  applyTemplate: { zh: '应用参数模板', en: 'Apply parameter template' },
};

export const TERMINAL_COMMAND_KIND_OPTIONS: readonly EnumOption[] = TERMINAL_COMMAND_KINDS.map((kind) => ({ value: kind, ...KIND_LABELS[kind] }));

/** A command not acknowledged this long after it was handed out is handed out again. */
export const COMMAND_RESEND_AFTER_MS = 5 * 60 * 1000;
/** Times a command is handed out at most; unacknowledged after the last, it fails. */
export const COMMAND_MAX_ATTEMPTS = 3;
/** A command still unfinished this long after it was queued expires. */
export const COMMAND_EXPIRES_AFTER_MS = 24 * 60 * 60 * 1000;

/** States in which a command may still change. */
export const OPEN_COMMAND_STATES = [S.QUEUED, S.SENT, S.DELIVERED] as const;

export const TerminalCommand = defineResource({
  name: 'TerminalCommand',
  label: { zh: '远程指令', en: 'Remote command' },
  table: 'terminal_commands',
  views: [{ frame: 'equipmentManage' }],
  // A tab of the terminal's drawer: a terminal (its own table) names its device, as commands do.
  parent: { family: 'Terminal', field: 'deviceId', key: 'deviceId' },
  scope: { via: 'school', field: 'schoolId' },
  titleField: 'kind',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    deviceId: { kind: 'reference', family: 'Device', display: 'serialNumber', label: { zh: '设备', en: 'Device' }, required: true, filter: 'equals' },
    schoolId: schoolRef({ from: 'deviceId' }),
    kind: { kind: 'enum', options: TERMINAL_COMMAND_KIND_OPTIONS, label: { zh: '指令', en: 'Command' }, required: true, filter: 'equals' },
    // applyTemplate: the template whose parameters were copied into the payload when queued.
    templateId: {
      kind: 'reference',
      family: 'TerminalConfig',
      display: 'name',
      label: { zh: '参数模板', en: 'Template' },
      filter: 'equals',
      help: { zh: '应用参数模板时必选', en: 'Required to apply a template' },
    },
    state: { kind: 'enum', options: TERMINAL_COMMAND_STATE_OPTIONS, label: { zh: '状态', en: 'State' }, readOnly: true, filter: 'equals' },
    attempts: { kind: 'number', label: { zh: '下发次数', en: 'Attempts' }, readOnly: true },
    payload: { kind: 'json', label: { zh: '参数', en: 'Parameters' }, readOnly: true, list: false, exported: false },
    resultCode: { kind: 'number', label: { zh: '结果码', en: 'Result code' }, readOnly: true },
    resultMessage: { kind: 'text', label: { zh: '结果说明', en: 'Result message' }, readOnly: true, max: 500 },
    createdAt: { kind: 'datetime', label: { zh: '创建时间', en: 'Queued at' }, readOnly: true, sortable: true, filter: 'range' },
    sentAt: { kind: 'datetime', label: { zh: '下发时间', en: 'Sent at' }, readOnly: true },
    deliveredAt: { kind: 'datetime', label: { zh: '送达时间', en: 'Delivered at' }, readOnly: true, list: false },
    finishedAt: { kind: 'datetime', label: { zh: '完成时间', en: 'Finished at' }, readOnly: true },
    expiresAt: { kind: 'datetime', label: { zh: '过期时间', en: 'Expires at' }, readOnly: true, list: false },
  },
  workflow: {
    field: 'state',
    initial: S.QUEUED,
    // Only a command nobody has been handed yet may be changed or withdrawn; after that it is a record.
    editableIn: [S.QUEUED],
    deletableIn: [S.QUEUED],
    transitions: [
      {
        verb: 'Cancel',
        from: [S.QUEUED, S.SENT],
        to: S.CANCELLED,
        button: 'update',
        label: { zh: '取消指令', en: 'Cancel' },
        fields: { remark: { kind: 'textarea', label: { zh: '备注', en: 'Remark' }, max: 500 } },
        danger: true,
        confirm: { zh: '取消后终端将不再执行该指令，确定取消吗？', en: 'The terminal will no longer run this command. Cancel it?' },
      },
    ],
    systemTransitions: [
      { verb: 'Send', from: [S.QUEUED, S.SENT], to: S.SENT, label: { zh: '下发', en: 'Sent to the terminal' } },
      { verb: 'Deliver', from: [S.SENT], to: S.DELIVERED, label: { zh: '终端已接收', en: 'Delivered' } },
      { verb: 'Succeed', from: [S.SENT, S.DELIVERED], to: S.SUCCEEDED, label: { zh: '执行成功', en: 'Succeeded' } },
      { verb: 'Fail', from: [S.SENT, S.DELIVERED], to: S.FAILED, label: { zh: '执行失败', en: 'Failed' } },
      { verb: 'GiveUp', from: [S.SENT], to: S.FAILED, label: { zh: '多次下发无应答', en: 'No acknowledgement' } },
      { verb: 'Expire', from: [S.QUEUED, S.SENT, S.DELIVERED], to: S.EXPIRED, label: { zh: '过期', en: 'Expired' } },
    ],
  },
  // commandsFor reads a device's open commands; the expiry sweep reads open commands by expiry.
  indexes: [['deviceId', 'state'], ['state', 'expiresAt']],
});
