/**
 * The SMS outbox (smsOutbox): every text the default provider "sent" (apps/server/src/platform/sms.ts
 * writes sms_outbox). Without a gateway this page is how a forgot-password or password-change code
 * reaches its user in the demo, so only company staff read it: the rows are live verification codes.
 */
import { defineResource } from './define.js';

export const SmsOutbox = defineResource({
  name: 'SmsOutbox',
  label: { zh: '短信发件箱', en: 'SMS outbox' },
  table: 'sms_outbox',
  handWritten: true,
  views: [{ frame: 'smsOutbox' }],
  scope: { via: 'global' },
  userTypes: ['company'],
  mode: 'log',
  // Codes live 5 minutes; a day of history is enough to find one, a week to see what was sent.
  log: { timeField: 'createdAt', defaultDays: 1, retentionDays: 30 },
  titleField: 'phone',
  fields: {
    createdAt: { kind: 'datetime', label: { zh: '时间', en: 'Time' }, readOnly: true, filter: 'range', width: 170 },
    phone: { kind: 'text', label: { zh: '手机号', en: 'Mobile' }, filter: 'digits', width: 140 },
    content: { kind: 'text', label: { zh: '内容', en: 'Content' }, width: 420 },
  },
});
