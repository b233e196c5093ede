/**
 * Terminal upgrades (issue 9): the packages a gate or attendance machine installs (versionManage)
 * and the plans that roll one out to chosen devices at a pace (upVersion). A plan's targets are
 * resolved when it is released; each device then reports its own progress through the intake.
 */
import { UPGRADE_ALGORITHMS } from '../api/terminal-intake.js';
import { enabledField } from './common.js';
import { defineResource, type EnumOption, type FieldDef } from './define.js';
import { DEVICE_TYPE_OPTIONS } from './device.js';

export const UPGRADE_ALGORITHM_OPTIONS = [
  { value: 'full', zh: '全量', en: 'Full' },
  { value: 'differential', zh: '差分', en: 'Differential' },
] as const satisfies readonly (EnumOption & { value: (typeof UPGRADE_ALGORITHMS)[number] })[];

/** A terminal firmware version as devices report it (heartbeat `firmwareVersion`). */
export const TERMINAL_VERSION_PATTERN = '^[A-Za-z0-9._-]{1,40}$';

/** The versions a package updates from, as typed: separated by commas, spaces or new lines. */
export function parseVersionList(text: string | null | undefined): string[] {
  return [...new Set((text ?? '').split(/[\s,，;；]+/).filter(Boolean))];
}

export const TerminalAppVersion = defineResource({
  name: 'TerminalAppVersion',
  label: { zh: '终端版本', en: 'Terminal version' },
  table: 'terminal_app_versions',
  views: [{ frame: 'versionManage' }],
  scope: { via: 'global' },
  titleField: 'versionNumber',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    terminalType: { kind: 'enum', options: DEVICE_TYPE_OPTIONS, label: { zh: '终端类型', en: 'Terminal type' }, required: true, filter: 'equals' },
    deviceCode: {
      kind: 'reference',
      family: 'DeviceClass',
      key: 'code',
      display: 'name',
      label: { zh: '设备型号', en: 'Model' },
      filter: 'equals',
      help: { zh: '不填则适用于该类型的所有型号', en: 'Empty: every model of the terminal type' },
      agrees: { reference: 'deviceCode', field: 'type', is: 'equal', of: 'terminalType', message: 'upgrade.modelNotOfType' },
    },
    // SEED-SPEC's `version`: the engine keeps `version` for the row's edit version.
    versionNumber: {
      kind: 'text',
      label: { zh: '版本号', en: 'Version' },
      required: true,
      max: 40,
      pattern: TERMINAL_VERSION_PATTERN,
      patternMessage: { zh: '字母、数字、点、下划线或横线', en: 'letters, digits, dots, underscores or dashes' },
      filter: 'code',
      sortable: true,
    },
    packageUrl: {
      kind: 'file',
      files: 'package',
      label: { zh: '升级包', en: 'Package' },
      required: true,
      list: false,
      recorded: { sha256: 'sha256', size: 'packageSize', message: 'upgrade.packageNotUploaded' },
    },
    sha256: { kind: 'text', label: { zh: 'SHA-256', en: 'SHA-256' }, readOnly: true, list: false, exported: true },
    packageSize: { kind: 'number', label: { zh: '包大小(字节)', en: 'Size (bytes)' }, readOnly: true },
    canUpdatedVersions: {
      kind: 'textarea',
      label: { zh: '可升级的版本', en: 'Updates from' },
      max: 2000,
      help: { zh: '以逗号或换行分隔；不填则任何版本都可升级', en: 'Separated by commas or new lines; empty: any version' },
    },
    upgradeAlgorithm: { kind: 'enum', options: UPGRADE_ALGORITHM_OPTIONS, label: { zh: '升级方式', en: 'Algorithm' }, required: true, defaultValue: 'full', filter: 'equals' },
    releaseNotes: { kind: 'textarea', label: { zh: '版本说明', en: 'Release notes' }, max: 2000, list: false },
    enabled: enabledField(),
    createdAt: { kind: 'datetime', label: { zh: '创建时间', en: 'Created at' }, readOnly: true, sortable: true },
  },
  toggles: [{ field: 'enabled', button: 'enable' }],
});

export const UPGRADE_PLAN_STATE_OPTIONS = [
  { value: 1, zh: '草稿', en: 'Draft', color: 'default' },
  { value: 2, zh: '已发布', en: 'Released', color: 'processing' },
  { value: 3, zh: '已暂停', en: 'Paused', color: 'orange' },
  { value: 4, zh: '已完成', en: 'Completed', color: 'green' },
  { value: 5, zh: '已取消', en: 'Cancelled', color: 'default' },
] as const;

/** Plan states (UPGRADE_PLAN_STATE_OPTIONS) the server's upgrade code reads and writes. */
export const UPGRADE_PLAN_STATES = { draft: 1, released: 2, paused: 3, completed: 4, cancelled: 5 } as const;

export const UPGRADE_TARGET_MODE_OPTIONS = [
  { value: 1, zh: '按学校', en: 'By school' },
  { value: 2, zh: '按型号', en: 'By model' },
  { value: 3, zh: '按设备列表', en: 'By device list' },
] as const;

export const UPGRADE_TARGET_MODES = { school: 1, model: 2, list: 3 } as const;

/**
 * A target device's state: waiting (not handed out yet, or handed out and not yet reported), the
 * states the device reports (UPGRADE_DEVICE_STATES), or cancelled with its plan.
 */
export const UPGRADE_TARGET_STATE_OPTIONS = [
  { value: 'WAITING', zh: '等待', en: 'Waiting', color: 'default' },
  { value: 'DOWNLOADING', zh: '下载中', en: 'Downloading', color: 'processing' },
  { value: 'DOWNLOADED', zh: '已下载', en: 'Downloaded', color: 'blue' },
  { value: 'VERIFIED', zh: '已校验', en: 'Verified', color: 'cyan' },
  { value: 'UPDATING', zh: '升级中', en: 'Updating', color: 'processing' },
  { value: 'UPDATED', zh: '已升级', en: 'Updated', color: 'green' },
  { value: 'FAILED', zh: '失败', en: 'Failed', color: 'red' },
  { value: 'CANCELLED', zh: '已取消', en: 'Cancelled', color: 'default' },
] as const;

const count = (zh: string, en: string): FieldDef => ({ kind: 'number', label: { zh, en }, readOnly: true, defaultValue: 0, width: 90 });

export const TerminalAppUpgrade = defineResource({
  name: 'TerminalAppUpgrade',
  label: { zh: '升级计划', en: 'Upgrade plan' },
  table: 'terminal_app_upgrades',
  views: [{ frame: 'upVersion' }],
  scope: { via: 'global' },
  titleField: 'name',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    name: { kind: 'text', label: { zh: '计划名称', en: 'Plan' }, required: true, max: 100, filter: 'name' },
    state: { kind: 'enum', options: UPGRADE_PLAN_STATE_OPTIONS, label: { zh: '状态', en: 'State' }, readOnly: true, filter: 'equals' },
    versionId: {
      kind: 'reference',
      family: 'TerminalAppVersion',
      display: 'versionNumber',
      optionsFilter: { enabled: true },
      label: { zh: '升级版本', en: 'Version' },
      required: true,
      filter: 'equals',
    },
    targetMode: { kind: 'enum', options: UPGRADE_TARGET_MODE_OPTIONS, label: { zh: '目标设备', en: 'Targets' }, required: true, defaultValue: 1, filter: 'equals' },
    targetSchoolId: {
      kind: 'reference',
      family: 'School',
      display: 'schoolName',
      label: { zh: '学校', en: 'School' },
      requiredWhen: { field: 'targetMode', in: [UPGRADE_TARGET_MODES.school] },
    },
    targetDeviceClassCode: {
      kind: 'reference',
      family: 'DeviceClass',
      key: 'code',
      display: 'name',
      label: { zh: '型号', en: 'Model' },
      requiredWhen: { field: 'targetMode', in: [UPGRADE_TARGET_MODES.model] },
    },
    serialNumbers: {
      kind: 'textarea',
      label: { zh: '设备序列号', en: 'Serial numbers' },
      max: 20000,
      list: false,
      requiredWhen: { field: 'targetMode', in: [UPGRADE_TARGET_MODES.list] },
      help: { zh: '每行一个，或用逗号分隔', en: 'One per line or separated by commas' },
    },
    devicesPerMinute: {
      kind: 'number',
      label: { zh: '每分钟设备数', en: 'Devices per minute' },
      required: true,
      min: 1,
      max: 10000,
      defaultValue: 10,
      help: { zh: '每分钟最多向多少台设备下发升级包', en: 'At most this many devices are handed the package in any minute' },
    },
    targetCount: count('目标数', 'Targets'),
    waitingCount: count('等待', 'Waiting'),
    inProgressCount: count('进行中', 'In progress'),
    updatedCount: count('已升级', 'Updated'),
    failedCount: count('失败', 'Failed'),
    releasedAt: { kind: 'datetime', label: { zh: '发布时间', en: 'Released at' }, readOnly: true, sortable: true },
    completedAt: { kind: 'datetime', label: { zh: '完成时间', en: 'Completed at' }, readOnly: true, list: false, exported: true },
    remark: { kind: 'textarea', label: { zh: '备注', en: 'Remark' }, max: 500, list: false },
    createdAt: { kind: 'datetime', label: { zh: '创建时间', en: 'Created at' }, readOnly: true, sortable: true, list: false },
    // Resolved from the target choice at release and moved only by the devices' reports.
    targets: {
      kind: 'lines',
      table: 'terminal_upgrade_targets',
      label: { zh: '升级设备', en: 'Devices' },
      readOnly: true,
      list: false,
      exported: false,
      fields: {
        deviceId: { kind: 'reference', family: 'Device', display: 'serialNumber', label: { zh: '设备', en: 'Device' } },
        state: { kind: 'enum', options: UPGRADE_TARGET_STATE_OPTIONS, label: { zh: '状态', en: 'State' } },
        fromVersion: { kind: 'text', label: { zh: '原版本', en: 'From version' }, max: 40 },
        handedAt: { kind: 'datetime', label: { zh: '下发时间', en: 'Handed out at' } },
        reportedAt: { kind: 'datetime', label: { zh: '最近上报', en: 'Last report' } },
        message: { kind: 'text', label: { zh: '最近消息', en: 'Last message' }, max: 500 },
      },
      // A heartbeat looks a device's targets up; pacing counts a plan's recent hand-outs.
      indexes: [['deviceId', 'state'], ['terminalAppUpgradeId', 'handedAt']],
    },
  },
  workflow: {
    field: 'state',
    initial: 1,
    // Targets are resolved at release: after that the plan is what was released.
    editableIn: [1],
    deletableIn: [1, 4, 5],
    transitions: [
      {
        verb: 'Release',
        from: [1],
        to: 2,
        button: 'state',
        label: { zh: '发布', en: 'Release' },
        confirm: { zh: '发布后将按计划向设备下发升级包，确定发布吗？', en: 'Devices will be handed the package at the plan’s pace. Release it?' },
      },
      { verb: 'Pause', from: [2], to: 3, button: 'state', label: { zh: '暂停', en: 'Pause' } },
      { verb: 'Resume', from: [3], to: 2, button: 'state', label: { zh: '继续', en: 'Resume' } },
      {
        verb: 'Cancel',
        from: [1, 2, 3],
        to: 5,
        button: 'state',
        label: { zh: '取消', en: 'Cancel' },
        danger: true,
        confirm: { zh: '取消后等待中的设备不再升级，确定取消吗？', en: 'Waiting devices will not be upgraded. Cancel the plan?' },
      },
    ],
    // Made by the platform when every device of the plan has updated or failed.
    systemTransitions: [{ verb: 'Complete', from: [2, 3], to: 4, label: { zh: '设备全部完成', en: 'Every device done' } }],
  },
  indexes: [['state']],
});
