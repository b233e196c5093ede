/**
 * Parameter templates of the terminals (page templateManage): recognition and temperature thresholds,
 * door-open time, volume and working hours, applied to devices by an applyTemplate command that
 * carries a copy of the parameters (TerminalCommand.payload).
 *
 * Who edits what (visibility probes, enforced by the server, hidden by the web):
 * `canUpdateParamConfigs` — may add, change, delete, switch and apply templates at all;
 * `canSetParamOptions` — may also set the recognition options: the recognition and temperature
 * thresholds, which decide who a gate lets in and who raises a fever alarm. Without it a new template
 * takes the default thresholds and an edit keeps the stored ones.
 */
import { enabledField } from './common.js';
import { defineResource } from './define.js';

/** The fields only holders of `canSetParamOptions` may set. */
export const PARAM_OPTION_FIELDS = ['recognitionThreshold', 'temperatureThreshold'] as const;

/** The thresholds a template gets when its author may not choose them. */
export const DEFAULT_PARAM_OPTIONS = { recognitionThreshold: 80, temperatureThreshold: 37.3 } as const;

/** "07:00-12:00,13:30-18:00": one or more daily ranges, 24-hour times. */
export const WORKING_HOURS_PATTERN = '^([01]\\d|2[0-3]):[0-5]\\d-([01]\\d|2[0-3]):[0-5]\\d(,([01]\\d|2[0-3]):[0-5]\\d-([01]\\d|2[0-3]):[0-5]\\d){0,5}$';

/** The parameters a template hands a terminal (the applyTemplate command's payload). */
export const TEMPLATE_PARAMETER_FIELDS = ['recognitionThreshold', 'temperatureThreshold', 'doorOpenSeconds', 'volume', 'workingHours'] as const;

export const TerminalConfig = defineResource({
  name: 'TerminalConfig',
  label: { zh: '参数模板', en: 'Parameter template' },
  table: 'terminal_configs',
  views: [{ frame: 'templateManage' }],
  // A catalogue: templates hold no school's data, and applying one needs the devices in scope.
  scope: { via: 'global' },
  // Changing or applying a template needs the probe; reading the templates does not.
  writers: { probe: 'canUpdateParamConfigs', message: { key: 'terminalConfig.noParamConfigs' } },
  titleField: 'name',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    name: { kind: 'text', label: { zh: '模板名称', en: 'Name' }, required: true, max: 50, unique: true, filter: 'name', sortable: true },
    recognitionThreshold: {
      kind: 'number',
      label: { zh: '识别阈值', en: 'Recognition threshold' },
      min: 0,
      max: 100,
      defaultValue: DEFAULT_PARAM_OPTIONS.recognitionThreshold,
      probe: 'canSetParamOptions',
      help: { zh: '相似度达到该值才算识别成功(0-100)', en: 'Similarity a face must reach to be recognised (0-100)' },
    },
    temperatureThreshold: {
      kind: 'number',
      integer: false,
      label: { zh: '体温报警阈值(℃)', en: 'Fever threshold (°C)' },
      min: 35,
      max: 42,
      defaultValue: DEFAULT_PARAM_OPTIONS.temperatureThreshold,
      probe: 'canSetParamOptions',
    },
    doorOpenSeconds: { kind: 'number', label: { zh: '开门时长(秒)', en: 'Door open (s)' }, required: true, min: 1, max: 60, defaultValue: 3 },
    volume: { kind: 'number', label: { zh: '音量', en: 'Volume' }, required: true, min: 0, max: 100, defaultValue: 60 },
    workingHours: {
      kind: 'text',
      label: { zh: '工作时段', en: 'Working hours' },
      required: true,
      max: 71,
      pattern: WORKING_HOURS_PATTERN,
      patternMessage: { zh: '格式如 07:00-12:00,13:30-18:00', en: 'Like 07:00-12:00,13:30-18:00' },
      defaultValue: '07:00-18:00',
    },
    enabled: enabledField(),
    remark: { kind: 'textarea', label: { zh: '备注', en: 'Remark' }, max: 500, list: false },
    updatedAt: { kind: 'datetime', label: { zh: '更新时间', en: 'Updated at' }, readOnly: true, sortable: true },
  },
  toggles: [{ field: 'enabled', button: 'update' }],
  actions: [
    {
      verb: 'ApplyTemplate',
      button: 'update',
      label: { zh: '应用到终端', en: 'Apply to terminals' },
      fields: {
        deviceIds: {
          kind: 'reference',
          family: 'Device',
          display: 'serialNumber',
          multiple: true,
          required: true,
          label: { zh: '设备', en: 'Devices' },
          help: { zh: '每台设备排队一条“应用参数模板”指令', en: 'Queues one "apply template" command per device' },
        },
      },
    },
  ],
});
