/** The platform settings shown as cards above family pages: declared once, listed once. */
import { API_PATHS } from '../api/paths.js';
import { HEARTBEAT_SECONDS_MAX, HEARTBEAT_SECONDS_MIN } from '../api/terminal-intake.js';
import { FEVER_THRESHOLD_MAX, FEVER_THRESHOLD_MIN } from '../resources/fever-alert.js';
import { defineSetting, type SettingDef } from './define.js';

export * from './define.js';

/** userTemperature: the temperature at which a recognition raises a fever alert. */
export const FeverThresholdSetting = defineSetting({
  name: 'feverThreshold',
  family: 'FeverAlert',
  action: 'threshold',
  frame: 'userTemperature',
  button: 'examine',
  paths: { get: API_PATHS.feverThreshold, save: API_PATHS.saveFeverThreshold },
  fields: {
    threshold: { kind: 'number', label: { zh: '体温阈值', en: 'Fever threshold' }, min: FEVER_THRESHOLD_MIN, max: FEVER_THRESHOLD_MAX, precision: 1, step: 0.1, unit: { zh: '℃', en: '℃' } },
  },
  hint: { zh: '此后到达的识别记录达到或超过该值即告警；已有告警保留当时的阈值。', en: 'Records arriving from now on raise an alert at or above it; earlier alerts keep theirs.' },
  saved: { zh: '体温阈值已保存', en: 'Fever threshold saved' },
  summaries: { get: 'The fever threshold (℃) alerts are raised at', save: 'Set the fever threshold (company users); records arriving from now on use it' },
});

/** equipmentManage: the heartbeat interval told to devices and the similarity a recognition must reach. */
export const TerminalSettingsSetting = defineSetting({
  name: 'terminalSettings',
  family: 'Terminal',
  action: 'settings',
  frame: 'equipmentManage',
  button: 'update',
  paths: { get: API_PATHS.terminalSettings, save: API_PATHS.saveTerminalSettings },
  fields: {
    heartbeatSeconds: {
      kind: 'number',
      label: { zh: '心跳间隔', en: 'Heartbeat interval' },
      min: HEARTBEAT_SECONDS_MIN,
      max: HEARTBEAT_SECONDS_MAX,
      precision: 0,
      integer: true,
      unit: { zh: '秒', en: 's' },
    },
    successSimilarity: { kind: 'number', label: { zh: '识别成功相似度', en: 'Success similarity' }, min: 0, max: 100, precision: 1, step: 0.1 },
  },
  hint: {
    zh: '终端下次调用时生效；未按时心跳 3 次即显示离线。已知人员相似度低于该值记为识别失败。',
    en: 'Devices get them at their next call; a terminal is offline after 3 missed heartbeats. A known person under the similarity is a failed recognition.',
  },
  saved: { zh: '终端设置已保存', en: 'Terminal settings saved' },
  summaries: {
    get: 'The heartbeat interval and the success similarity in force',
    save: 'Set the heartbeat interval and the success similarity (company users); devices get them at their next call',
  },
});

/** userCompany: whether company administrators must sign in with an authenticator (ASVS 4.3.1). */
export const TwoFactorPolicySetting = defineSetting({
  name: 'twoFactorPolicy',
  family: 'CompanyUser',
  action: 'twoFactorPolicy',
  frame: 'userCompany',
  button: 'password',
  paths: { get: API_PATHS.twoFactorPolicy, save: API_PATHS.saveTwoFactorPolicy },
  fields: { required: { kind: 'bool', label: { zh: '公司管理员须使用双重验证', en: 'Company administrators must use two-factor sign-in' } } },
  hint: {
    zh: '开启后，公司管理员账号须用身份验证器登录：未设置的账号在下次登录时设置，它们当前的登录会话立即结束。开启前请先在个人信息页为自己设置。',
    en: 'When on, company administrator accounts sign in with an authenticator: those without one set it up at their next sign-in, and their current sessions end at once. Set up your own on the profile page first.',
  },
  saved: { zh: '已保存双重验证要求', en: 'Two-factor requirement saved' },
  summaries: { get: 'Whether company administrators must sign in with an authenticator', save: 'Make two-factor sign-in mandatory for company administrators, or optional again' },
  description: 'Turning it on needs the caller’s own authenticator, and ends the sessions of company administrators without one: they set one up at their next sign-in.',
});

/** The settings key of the points earned per event (mall/points-earning.ts). */
export const POINTS_EARNING_KEY = 'pointsEarning';
/** What parents earn until a company user sets it. */
export const DEFAULT_POINTS_EARNING = { orderCompleted: 10, questionnaireAnswered: 5 } as const;

/** scallionRiceOrder: the 葱米 a parent earns for an order completed and for a questionnaire answered. */
export const PointsEarningSetting = defineSetting({
  name: 'pointsEarning',
  family: 'CommodityOrder',
  action: 'pointsEarning',
  frame: 'scallionRiceOrder',
  button: 'update',
  paths: { get: API_PATHS.pointsEarning, save: API_PATHS.savePointsEarning },
  fields: {
    orderCompleted: { kind: 'number', label: { zh: '订单完成奖励', en: 'Per order completed' }, min: 0, max: 10_000, precision: 0, integer: true, unit: { zh: '葱米', en: 'points' } },
    questionnaireAnswered: { kind: 'number', label: { zh: '问卷奖励', en: 'Per questionnaire answered' }, min: 0, max: 10_000, precision: 0, integer: true, unit: { zh: '葱米', en: 'points' } },
  },
  hint: { zh: '此后完成的订单和提交的问卷按新值奖励；已发放的葱米不变。', en: 'Orders completed and questionnaires answered from now on earn these; points already earned stay.' },
  saved: { zh: '葱米奖励已保存', en: 'Points earning saved' },
  summaries: { get: 'The points a parent earns per order completed and per questionnaire answered', save: 'Set the points parents earn (company users)' },
});

/** Every declared setting, once. */
export const SETTINGS: readonly SettingDef[] = [FeverThresholdSetting, TerminalSettingsSetting, TwoFactorPolicySetting, PointsEarningSetting];

/** The settings shown above a family's page, in declared order. */
export function settingsOfFamily(family: string): SettingDef[] {
  return SETTINGS.filter((setting) => setting.family === family);
}
