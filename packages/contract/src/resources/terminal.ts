/**
 * Terminals (issue 9, page equipmentManage): a deployed gate or attendance machine, one per Device.
 * The console registers a device as a terminal and issues its secret; from then on the device signs
 * its intake calls (api/terminal-intake.ts) and its heartbeats fill in what this page shows.
 */
import { TEMPERATURE_SENSOR_STATES, TERMINAL_LOG_LEVELS } from '../api/terminal-intake.js';
import { defineResource, type EnumOption } from './define.js';
import { enabledField, schoolRef } from './common.js';

export const TEMPERATURE_SENSOR_OPTIONS = [
  { value: 'ok', zh: '正常', en: 'OK', color: 'green' },
  { value: 'fault', zh: '故障', en: 'Fault', color: 'red' },
  { value: 'absent', zh: '未安装', en: 'Absent', color: 'default' },
] as const satisfies readonly (EnumOption & { value: (typeof TEMPERATURE_SENSOR_STATES)[number] })[];

export const Terminal = defineResource({
  name: 'Terminal',
  label: { zh: '终端', en: 'Terminal' },
  table: 'terminals',
  views: [{ frame: 'equipmentManage' }],
  scope: { via: 'school', field: 'schoolId' },
  titleField: 'serialNumber',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    deviceId: { kind: 'reference', family: 'Device', display: 'serialNumber', label: { zh: '设备序列号', en: 'Device serial' }, required: true, unique: true, filter: 'equals', width: 170 },
    // The device's serial number, copied at each write and kept in step by the database when the device
    // is renumbered (migration `*_terminal-device-copies.sql`): names the terminal in pickers and confirmations.
    serialNumber: { kind: 'text', label: { zh: '序列号', en: 'Serial number' }, readOnly: true, follows: { reference: 'deviceId', field: 'serialNumber' }, max: 40, list: false, exported: false, filter: 'code' },
    // The terminal works for the school its device is installed at: copied from the device on each write,
    // and moved with the device by the database whoever moves it.
    schoolId: schoolRef({ from: 'deviceId', refuseEmpty: true }),
    // Live: the intake sets `offlineAt` at each signed call, and whether it has passed is answered
    // at the time of the request (`until`), so the page needs no job to flip states.
    online: {
      kind: 'bool',
      computed: true,
      until: 'offlineAt',
      readOnly: true,
      label: { zh: '在线状态', en: 'Status' },
      trueLabel: { zh: '在线', en: 'Online' },
      falseLabel: { zh: '离线', en: 'Offline' },
      filter: 'equals',
      width: 90,
    },
    lastSeenAt: { kind: 'datetime', label: { zh: '最后心跳', en: 'Last seen' }, readOnly: true, sortable: true, width: 170 },
    // lastSeenAt + OFFLINE_AFTER_MISSED_HEARTBEATS × the interval told at that call: what `online` compares with now.
    offlineAt: { kind: 'datetime', label: { zh: '离线时间', en: 'Offline from' }, readOnly: true, list: false, exported: false },
    firmwareVersion: { kind: 'text', label: { zh: '固件版本', en: 'Firmware' }, readOnly: true, max: 40, filter: 'equals', width: 110 },
    ip: { kind: 'text', label: { zh: 'IP', en: 'IP' }, readOnly: true, max: 45, width: 130 },
    freeStorageMb: { kind: 'number', label: { zh: '剩余存储(MB)', en: 'Free storage (MB)' }, readOnly: true, width: 120 },
    faceCount: { kind: 'number', label: { zh: '人脸数', en: 'Faces' }, readOnly: true, width: 90 },
    temperatureSensor: { kind: 'enum', options: TEMPERATURE_SENSOR_OPTIONS, label: { zh: '测温模块', en: 'Temperature sensor' }, readOnly: true, width: 110 },
    secretIssuedAt: { kind: 'datetime', label: { zh: '密钥签发时间', en: 'Secret issued' }, readOnly: true, width: 170 },
    // The template of this terminal's last applyTemplate command that succeeded (terminals/commands.ts).
    templateId: { kind: 'reference', family: 'TerminalConfig', display: 'name', label: { zh: '参数模板', en: 'Template' }, readOnly: true, filter: 'equals', width: 140 },
    enabled: { ...enabledField(), help: { zh: '停用的终端上报的数据一律拒收', en: 'A disabled terminal is refused by the intake' } },
    remark: { kind: 'textarea', label: { zh: '备注', en: 'Remark' }, max: 500, list: false },
  },
  toggles: [{ field: 'enabled', button: 'enable' }],
  actions: [
    {
      verb: 'IssueSecret',
      button: 'update',
      label: { zh: '签发密钥', en: 'Issue secret' },
      confirm: { zh: '重新签发后旧密钥立即失效，终端需配置新密钥才能继续上报。确定吗？', en: 'The old secret stops working at once: the terminal reports nothing until it is given the new one. Issue a new secret?' },
      confirmWhenSet: 'secretIssuedAt',
      reveal: {
        field: 'secret',
        label: { zh: '终端密钥', en: 'Terminal secret' },
        help: { zh: '密钥只显示这一次，请立即复制并配置到终端。', en: 'This secret is shown only once: copy it into the terminal now.' },
      },
    },
  ],
  // The page lists a school's terminals by state: online ones first come from offlineAt.
  indexes: [['schoolId', 'offlineAt']],
});

/** What a terminal logs, as the terminal log page shows it. */
export const TERMINAL_LOG_LEVEL_OPTIONS = [
  { value: 'debug', zh: '调试', en: 'Debug', color: 'default' },
  { value: 'info', zh: '信息', en: 'Info', color: 'blue' },
  { value: 'warn', zh: '警告', en: 'Warning', color: 'orange' },
  { value: 'error', zh: '错误', en: 'Error', color: 'red' },
] as const satisfies readonly (EnumOption & { value: (typeof TERMINAL_LOG_LEVELS)[number] })[];

/**
 * Terminal logs (page terminalLog): what the terminals report of themselves through the intake,
 * kept per school. `/api/Log/GetTerminalLogs` is the old name of its Search (`aliases`).
 */
export const TerminalLog = defineResource({
  name: 'TerminalLog',
  label: { zh: '终端日志', en: 'Terminal log' },
  table: 'terminal_logs',
  views: [{ frame: 'terminalLog' }],
  scope: { via: 'school', field: 'schoolId' },
  mode: 'log',
  log: { timeField: 'loggedAt', defaultDays: 7, retentionDays: 90, aliases: [{ path: '/api/Log/GetTerminalLogs', verb: 'GetTerminalLogs' }] },
  titleField: 'message',
  fields: {
    loggedAt: { kind: 'datetime', label: { zh: '时间', en: 'Time' }, required: true, filter: 'range', width: 170 },
    deviceId: { kind: 'reference', family: 'Device', display: 'serialNumber', label: { zh: '设备', en: 'Device' }, required: true, filter: 'equals', width: 150 },
    schoolId: schoolRef(),
    level: { kind: 'enum', options: TERMINAL_LOG_LEVEL_OPTIONS, label: { zh: '级别', en: 'Level' }, required: true, filter: 'equals', width: 90 },
    module: { kind: 'text', label: { zh: '模块', en: 'Module' }, required: true, max: 40, filter: 'equals', width: 120 },
    message: { kind: 'textarea', label: { zh: '内容', en: 'Message' }, required: true, max: 2000, filter: 'code' },
    // The terminal's own serial of the line: a retried batch stores each line once.
    logSerial: { kind: 'number', label: { zh: '日志序号', en: 'Log serial' }, required: true, list: false },
  },
  uniqueIndexes: [['deviceId', 'logSerial']],
});
