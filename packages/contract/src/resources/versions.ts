/**
 * Versions the platform hands out: the parent and teacher apps' releases (appVersionManage), which
 * the apps ask for through the public GET /api/AppVersion/Latest.
 */
import { defineResource } from './define.js';

export const APP_OS_TYPE_OPTIONS = [
  { value: 1, zh: 'Android', en: 'Android', color: 'green' },
  { value: 2, zh: 'iOS', en: 'iOS', color: 'blue' },
] as const;

export const APP_TYPE_OPTIONS = [
  { value: 1, zh: '家长端', en: 'Parent app' },
  { value: 2, zh: '教师端', en: 'Teacher app' },
] as const;

export const AppVersion = defineResource({
  name: 'AppVersion',
  label: { zh: 'App版本', en: 'App version' },
  table: 'app_versions',
  views: [{ frame: 'appVersionManage' }],
  scope: { via: 'global' },
  titleField: 'versionNumber',
  defaultSort: { field: 'versionCode', order: 'desc' },
  fields: {
    osType: { kind: 'enum', options: APP_OS_TYPE_OPTIONS, label: { zh: '系统', en: 'OS' }, required: true, filter: 'equals' },
    appType: { kind: 'enum', options: APP_TYPE_OPTIONS, label: { zh: 'App类型', en: 'App' }, required: true, filter: 'equals' },
    versionNumber: {
      kind: 'text',
      label: { zh: '版本号', en: 'Version' },
      required: true,
      max: 20,
      pattern: '^\\d{1,5}(\\.\\d{1,5}){0,3}$',
      patternMessage: { zh: '形如 2.3.1', en: 'like 2.3.1' },
      filter: 'code',
    },
    // What the apps compare: a release is newer exactly when its code is larger.
    versionCode: { kind: 'number', integer: true, min: 1, max: 2_000_000_000, label: { zh: '版本编码', en: 'Version code' }, required: true, sortable: true },
    isEnabled: { kind: 'bool', label: { zh: '启用', en: 'Enabled' }, filter: 'equals', defaultValue: false },
    isForceUpgrade: {
      kind: 'bool',
      label: { zh: '强制升级', en: 'Forced' },
      filter: 'equals',
      defaultValue: false,
      help: { zh: '旧版本必须升级后才能继续使用', en: 'Older versions must upgrade before they can be used again' },
    },
    updateContent: { kind: 'textarea', label: { zh: '更新内容', en: 'Release notes' }, required: true, max: 2000 },
    downloadUrl: {
      kind: 'file',
      files: 'package',
      label: { zh: '安装包/下载地址', en: 'Package / download address' },
      required: true,
      list: false,
      help: { zh: 'Android 上传 APK；iOS 填写 App Store 地址', en: 'Android: upload the APK; iOS: the App Store address' },
    },
    createdAt: { kind: 'datetime', label: { zh: '创建时间', en: 'Created at' }, readOnly: true, sortable: true },
  },
  toggles: [
    { field: 'isEnabled', button: 'enable' },
    { field: 'isForceUpgrade', button: 'update' },
  ],
  // One code per app and OS; the same index answers Latest (os, app, code > caller's).
  uniqueIndexes: [['osType', 'appType', 'versionCode']],
});
