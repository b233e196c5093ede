import { defineResource } from './define.js';
import { USER_TYPE_LABELS } from '../users.js';

export const SCHOOL_TYPE_OPTIONS = [
  { value: 1, zh: '幼儿园', en: 'Kindergarten' },
  { value: 2, zh: '小学', en: 'Primary school' },
  { value: 3, zh: '中学', en: 'Secondary school' },
  { value: 4, zh: '培训机构', en: 'Training centre' },
] as const;

/** licenseKeyRequired 0 = not set yet: such schools are the "unset licence" badge. */
export const LICENSE_REQUIRED_OPTIONS = [
  { value: 0, zh: '未设置', en: 'Not set', color: 'orange' },
  { value: 1, zh: '需要授权码', en: 'Licence required', color: 'blue' },
  { value: 2, zh: '无需授权码', en: 'No licence needed', color: 'default' },
] as const;

export const SCHOOL_STATE_OPTIONS = [
  { value: 1, zh: '正常', en: 'Active', color: 'green' },
  { value: 0, zh: '停用', en: 'Suspended', color: 'red' },
] as const;

export const EXAMINE_OPTIONS = [
  { value: 0, zh: '待审核', en: 'Pending review', color: 'orange' },
  { value: 1, zh: '审核通过', en: 'Approved', color: 'green' },
  { value: 2, zh: '审核驳回', en: 'Rejected', color: 'red' },
] as const;

export const LICENSE_MODE_OPTIONS = [
  { value: 1, zh: '按设备授权', en: 'Per device' },
  { value: 2, zh: '按人数授权', en: 'Per person' },
] as const;

export const School = defineResource({
  name: 'School',
  label: { zh: '学校', en: 'School' },
  table: 'schools',
  views: [{ frame: 'schoolManage' }],
  scope: { via: 'self' },
  // A school's own users (external accounts) read it; its owners change it.
  writers: { userTypes: ['company', 'sales', 'agent', 'child'], message: { key: 'school.onlyOwners' } },
  titleField: 'schoolName',
  searchDefaults: { licenseKeyRequired: -1, schoolType: 0, state: -1 },
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    schoolName: { kind: 'text', label: { zh: '学校名称', en: 'School name' }, required: true, max: 100, filter: 'name', sortable: true, unique: true, width: 220 },
    province: { kind: 'region', part: 'province', label: { zh: '省', en: 'Province' }, required: true, filter: 'equals' },
    city: { kind: 'region', part: 'city', label: { zh: '市', en: 'City' }, required: true, filter: 'equals' },
    area: { kind: 'region', part: 'area', label: { zh: '区', en: 'District' }, filter: 'equals' },
    schoolAddress: { kind: 'text', label: { zh: '详细地址', en: 'Street address' }, max: 200, list: false },
    agentId: { kind: 'reference', family: 'User', display: 'name', optionsFilter: { type: 'agent' }, refusal: { key: 'account.mustBeType', params: { type: USER_TYPE_LABELS.agent } }, label: { zh: '代理商', en: 'Agent' }, filter: 'equals', ownedBy: 'agent' },
    schoolType: { kind: 'enum', options: SCHOOL_TYPE_OPTIONS, label: { zh: '学校类型', en: 'School type' }, required: true, filter: 'equals', filterAll: 0, defaultValue: 1 },
    licenseKeyRequired: { kind: 'enum', options: LICENSE_REQUIRED_OPTIONS, label: { zh: '授权码', en: 'Licence' }, filter: 'equals', filterAll: -1, defaultValue: 0 },
    licenseMode: { kind: 'enum', options: LICENSE_MODE_OPTIONS, label: { zh: '授权方式', en: 'Licence mode' }, defaultValue: 1 },
    state: { kind: 'enum', options: SCHOOL_STATE_OPTIONS, label: { zh: '状态', en: 'State' }, filter: 'equals', filterAll: -1, defaultValue: 1, form: false },
    examineState: { kind: 'enum', options: EXAMINE_OPTIONS, label: { zh: '审核', en: 'Review' }, filter: 'equals', readOnly: true },
    sellerId: { kind: 'reference', family: 'User', display: 'name', optionsFilter: { type: 'sales' }, refusal: { key: 'account.mustBeType', params: { type: USER_TYPE_LABELS.sales } }, label: { zh: '销售', en: 'Sales person' }, filter: 'equals', ownedBy: 'seller' },
    salesTeamId: { kind: 'reference', family: 'SalesTeam', display: 'name', label: { zh: '销售团队', en: 'Sales team' }, filter: 'equals', list: false, ownedBy: 'salesTeam' },
    isDirect: { kind: 'bool', label: { zh: '直营', en: 'Direct' }, filter: 'equals', defaultValue: false, trueLabel: { zh: '直营', en: 'Direct' }, falseLabel: { zh: '代理', en: 'Via agent' } },
    contactName: { kind: 'text', label: { zh: '联系人', en: 'Contact' }, max: 50 },
    contactPhone: { kind: 'phone', phoneKind: 'serviceLine', label: { zh: '联系电话', en: 'Contact phone' } },
    adminLoginName: { kind: 'text', label: { zh: '学校管理员账号', en: 'School admin account' }, max: 64, list: false, readOnly: true, exported: true },
    createdAt: { kind: 'datetime', label: { zh: '创建时间', en: 'Created' }, readOnly: true, sortable: true, filter: 'range' },
  },
  toggles: [{ field: 'state', button: 'state' }],
  // A new school waits for review; a rejected one is resubmitted and reviewed again.
  workflow: {
    field: 'examineState',
    initial: 0,
    transitions: [
      {
        verb: 'Examine',
        from: [0],
        to: { by: 'isPassed', cases: { true: 1, false: 2 } },
        button: 'examine',
        label: { zh: '审核', en: 'Review' },
        // The review's outcome stays on the school; every step also lands in the state history.
        stamps: { at: 'examinedAt', remark: 'examineRemark' },
        fields: {
          isPassed: { kind: 'bool', label: { zh: '是否通过', en: 'Approved' }, required: true, trueLabel: { zh: '通过', en: 'Approve' }, falseLabel: { zh: '驳回', en: 'Reject' } },
          remark: { kind: 'textarea', label: { zh: '审核意见', en: 'Comment' }, max: 500 },
        },
      },
      {
        verb: 'Resubmit',
        from: [2],
        to: 0,
        button: 'update',
        label: { zh: '重新提交', en: 'Resubmit' },
        confirm: { zh: '重新提交后学校将再次等待审核，确定吗？', en: 'The school will wait for review again. Resubmit it?' },
      },
    ],
  },
  actions: [
    {
      verb: 'UpdateAdmin',
      button: 'password',
      label: { zh: '管理员账号', en: 'Admin account' },
      fields: {
        adminLoginName: { kind: 'text', label: { zh: '管理员账号', en: 'Admin account' }, required: true, min: 4, max: 64, pattern: '^[A-Za-z0-9_.@-]+$' },
        adminPassword: { kind: 'password', label: { zh: '管理员密码', en: 'Admin password' }, required: true },
      },
    },
  ],
  indexes: [['agentId'], ['sellerId'], ['salesTeamId'], ['province', 'city']],
  import: {
    examples: [
      { schoolName: '示例实验小学', province: '广东省', city: '深圳市', area: '南山区', schoolAddress: '科技园路 1 号', schoolType: 2, licenseKeyRequired: 1, licenseMode: 1, isDirect: false, contactName: '李校长', contactPhone: '0755-86000000' },
    ],
  },
});
