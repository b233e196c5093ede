/**
 * Third-party developers (developManage): an app id the server generates, a signing secret it answers
 * once (ResetSecret) and keeps sealed, an https callback address, and the schools whose recognition
 * events the developer may read through the signed Open API (api/open-api.ts).
 */
import { defineResource } from './define.js';
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
      pattern: '^https://[^\\s/?#]+[^\\s]*$',
      patternMessage: { zh: '以 https:// 开头的地址', en: 'an address starting with https://' },
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
