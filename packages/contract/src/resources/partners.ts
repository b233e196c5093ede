/**
 * Partner platforms and merchants (appCoopPlatform), and the bank service platforms among them
 * (CCB_ServicePlatform, shown where `canShowThirdPartyType`). Their keys are credentials the server
 * itself uses to call the partner, so they are sealed (AES-256-GCM) and never answered; the list shows
 * whether a key is stored and its last four characters only.
 */
import { enabledField } from './common.js';
import { defineResource } from './define.js';

export const PLATFORM_TYPE_PAYMENT = 1;
export const PLATFORM_TYPE_CONTENT = 2;
export const PLATFORM_TYPE_BANK_SERVICE = 3;

export const PLATFORM_TYPE_OPTIONS = [
  { value: PLATFORM_TYPE_PAYMENT, zh: '支付平台', en: 'Payments', color: 'blue' },
  { value: PLATFORM_TYPE_CONTENT, zh: '内容平台', en: 'Content', color: 'green' },
  { value: PLATFORM_TYPE_BANK_SERVICE, zh: '银行服务平台', en: 'Bank service platform', color: 'gold' },
] as const;

export const AppCooperationPlatform = defineResource({
  name: 'AppCooperationPlatform',
  label: { zh: '合作平台', en: 'Partner platform' },
  table: 'app_cooperation_platforms',
  views: [{ frame: 'appCoopPlatform' }, { frame: 'CCB_ServicePlatform', fixed: { platformType: PLATFORM_TYPE_BANK_SERVICE } }],
  scope: { via: 'global' },
  titleField: 'name',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    logo: { kind: 'image', label: { zh: '标志', en: 'Logo' }, width: 70 },
    name: { kind: 'text', label: { zh: '平台名称', en: 'Name' }, required: true, max: 50, filter: 'name', sortable: true },
    platformType: { kind: 'enum', options: PLATFORM_TYPE_OPTIONS, label: { zh: '平台类型', en: 'Type' }, required: true, filter: 'equals', width: 130 },
    merchantNo: { kind: 'text', label: { zh: '商户号', en: 'Merchant no.' }, required: true, max: 64, filter: 'equals', width: 150 },
    appId: { kind: 'text', label: { zh: 'AppID', en: 'App ID' }, required: true, max: 64, width: 150 },
    apiKey: {
      kind: 'password',
      sealed: true,
      label: { zh: '接口密钥', en: 'API key' },
      required: true,
      help: { zh: '保存后不再显示；留空则保留原密钥', en: 'Never shown after saving; leave empty to keep the stored key' },
    },
    // The last four characters of the sealed key, so staff can tell which key is stored.
    apiKeyHint: { kind: 'text', label: { zh: '密钥', en: 'Key' }, readOnly: true, width: 110 },
    callbackUrl: {
      kind: 'text',
      label: { zh: '回调地址', en: 'Callback URL' },
      max: 500,
      pattern: '^https://[^\\s]+$',
      patternMessage: { zh: '以 https:// 开头的地址', en: 'an address starting with https://' },
      list: false,
    },
    contactName: { kind: 'text', label: { zh: '联系人', en: 'Contact' }, max: 50, list: false },
    contactPhone: { kind: 'phone', phoneKind: 'serviceLine', label: { zh: '联系电话', en: 'Contact phone' }, list: false },
    enabled: enabledField(),
  },
  toggles: [{ field: 'enabled', button: 'enable' }],
});
