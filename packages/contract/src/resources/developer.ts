/**
 * Third-party developers (developManage): an app id the server generates, a signing secret it answers
 * once (ResetSecret) and keeps sealed, an http(s) callback address, and the schools whose recognition
 * events the developer may read through the signed Open API (api/open-api.ts) and receives at its
 * callback address (api/developer-callbacks.ts). Each callback attempt is a row of DeveloperDelivery.
 */
import { defineResource, type EnumOption } from './define.js';
import { enabledField } from './common.js';

export const Developer = defineResource({
  name: 'Developer',
  label: { zh: '开发者', en: 'Developer' },
  table: 'developers',
  views: [{ frame: 'developManage' }],
  // Company business: a developer may be granted schools of any agent.
  scope: { via: 'global' },
  userTypes: ['company'],
  titleField: 'name',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    name: { kind: 'text', label: { zh: '名称', en: 'Name' }, required: true, max: 50, filter: 'name', width: 160 },
    appId: { kind: 'text', label: { zh: 'AppId', en: 'App id' }, readOnly: true, unique: true, filter: 'equals', width: 200 },
    callbackUrl: {
      kind: 'text',
      label: { zh: '回调地址', en: 'Callback URL' },
      max: 500,
      // Recognition events are POSTed here (api/developer-callbacks.ts); the server also refuses internal addresses.
      pattern: '^https?://[^\\s/?#]+[^\\s]*$',
      patternMessage: { zh: '以 http:// 或 https:// 开头的地址', en: 'an address starting with http:// or https://' },
      width: 260,
    },
    enabled: enabledField(),
    schoolIds: {
      kind: 'reference',
      family: 'School',
      display: 'schoolName',
      multiple: true,
      link: { table: 'developer_schools', owner: 'developerId', target: 'schoolId' },
      label: { zh: '可读学校', en: 'Schools it may read' },
      filter: 'equals',
      width: 240,
    },
    secretIssuedAt: { kind: 'datetime', label: { zh: '密钥签发时间', en: 'Secret issued' }, readOnly: true, width: 170 },
  },
  toggles: [{ field: 'enabled', button: 'enable' }],
  actions: [
    {
      verb: 'ResetSecret',
      button: 'update',
      label: { zh: '签发密钥', en: 'Issue secret' },
      confirm: { zh: '重新签发后旧密钥立即失效，开发者需换用新密钥签名。确定吗？', en: 'The old secret stops working at once: the developer must sign with the new one. Issue a new secret?' },
      confirmWhenSet: 'secretIssuedAt',
      reveal: {
        field: 'secret',
        label: { zh: '开发者密钥', en: 'Developer secret' },
        help: { zh: '密钥只显示这一次，请立即复制并交给开发者。', en: 'This secret is shown only once: copy it to the developer now.' },
      },
    },
  ],
});

/**
 * How one callback attempt ended: `delivered` the receiver answered 2xx; `retrying` it failed (non-2xx,
 * timeout, network) and the delivery waits for its next attempt; `dead` it failed and was the last
 * attempt — an operator may retry the delivery.
 */
export const CALLBACK_OUTCOME_OPTIONS = [
  { value: 'delivered', zh: '已送达', en: 'Delivered', color: 'success' },
  { value: 'retrying', zh: '待重试', en: 'Retrying', color: 'warning' },
  { value: 'dead', zh: '已放弃', en: 'Dead', color: 'error' },
] as const satisfies readonly EnumOption[];
export type CallbackOutcome = (typeof CALLBACK_OUTCOME_OPTIONS)[number]['value'];

/**
 * The delivery log of developManage: one row per attempt to POST a batch of recognition events to a
 * developer's callback URL, written by the callback worker (apps/server/src/developers). A delivery
 * whose last attempt was `dead` can be retried from its row.
 */
export const DeveloperDelivery = defineResource({
  name: 'DeveloperDelivery',
  label: { zh: '回调投递记录', en: 'Callback deliveries' },
  table: 'developer_delivery_attempts',
  views: [{ frame: 'developManage' }],
  scope: { via: 'global' },
  userTypes: ['company'],
  mode: 'log',
  log: { timeField: 'attemptedAt', defaultDays: 7, retentionDays: 30 },
  titleField: 'deliveryId',
  fields: {
    attemptedAt: { kind: 'datetime', label: { zh: '尝试时间', en: 'Attempted at' }, readOnly: true, filter: 'range', width: 170 },
    developerId: { kind: 'reference', family: 'Developer', display: 'name', label: { zh: '开发者', en: 'Developer' }, required: true, filter: 'equals', width: 160 },
    // The delivery's idempotency key, sent as x-open-delivery-id: the same on each of its attempts.
    deliveryId: { kind: 'text', label: { zh: '投递编号', en: 'Delivery id' }, required: true, max: 64, filter: 'code', width: 200 },
    attempt: { kind: 'number', label: { zh: '第几次', en: 'Attempt' }, required: true, width: 80 },
    eventCount: { kind: 'number', label: { zh: '事件数', en: 'Events' }, required: true, width: 80 },
    outcome: { kind: 'enum', options: CALLBACK_OUTCOME_OPTIONS, label: { zh: '结果', en: 'Outcome' }, required: true, filter: 'equals', width: 100 },
    httpStatus: { kind: 'number', label: { zh: 'HTTP 状态', en: 'HTTP status' }, width: 100 },
    durationMs: { kind: 'number', label: { zh: '耗时(毫秒)', en: 'Duration (ms)' }, width: 110 },
    error: { kind: 'text', label: { zh: '错误', en: 'Error' }, max: 500, width: 260 },
    nextAttemptAt: { kind: 'datetime', label: { zh: '下次尝试', en: 'Next attempt' }, readOnly: true, width: 170 },
    callbackUrl: { kind: 'text', label: { zh: '回调地址', en: 'Callback URL' }, max: 500, list: false },
  },
  actions: [
    {
      verb: 'Retry',
      button: 'update',
      label: { zh: '立即重试', en: 'Retry now' },
      confirm: { zh: '立即再投递一次这批事件？', en: 'Deliver these events once more now?' },
      offeredWhen: { outcome: 'dead' },
    },
  ],
});
