/**
 * The console's accounts (PRODUCT section 1), as three families over one table of accounts:
 * company staff and sales people (userCompany), external users and the agents (userExternal), and
 * the child accounts of agents (userChild).
 */
import { SELLER_POSITIONS, USER_TYPE_LABELS, type UserType } from '../users.js';
import { defineResource, type EnumOption, type FieldDef } from './define.js';
import { enabledField } from './common.js';

const typeOptions = (types: readonly UserType[]): EnumOption[] =>
  types.map((type) => ({ value: type, ...USER_TYPE_LABELS[type], color: type === 'agent' ? 'purple' : type === 'sales' ? 'blue' : 'default' }));

export const SELLER_POSITION_OPTIONS: readonly EnumOption[] = SELLER_POSITIONS.map((position) =>
  position === 'leader' ? { value: position, zh: '组长', en: 'Team leader', color: 'gold' } : { value: position, zh: '组员', en: 'Team member' },
);

/** The fields every account family shows. */
const accountFields = {
  loginName: {
    kind: 'text',
    label: { zh: '登录账号', en: 'Login name' },
    required: true,
    min: 3,
    max: 64,
    pattern: '^[A-Za-z0-9_.@-]+$',
    patternMessage: { zh: '只能包含字母、数字和 _ . @ -', en: 'letters, digits and _ . @ - only' },
    unique: true,
    filter: 'code',
    sortable: true,
  },
  password: {
    kind: 'password',
    label: { zh: '密码', en: 'Password' },
    required: true,
    help: { zh: '初始密码；首次登录须验证手机并修改', en: 'Initial password; the user verifies the phone and changes it at first login' },
  },
  name: { kind: 'text', label: { zh: '姓名', en: 'Name' }, required: true, max: 50, filter: 'name', sortable: true },
  phoneNum: { kind: 'phone', phoneKind: 'mobile', label: { zh: '手机号', en: 'Mobile' }, required: true, filter: 'digits' },
} as const satisfies Record<string, FieldDef>;

/** enabled, the must-change flag and the login/creation times, shown last. */
const accountStateFields = {
  enabled: enabledField(),
  mustChangePassword: {
    kind: 'bool',
    label: { zh: '下次登录须改密', en: 'Change password at next login' },
    defaultValue: true,
    trueLabel: { zh: '是', en: 'Yes' },
    falseLabel: { zh: '否', en: 'No' },
    help: { zh: '管理员设置的密码默认须由本人修改', en: 'A password set by an administrator must be changed by its owner unless switched off' },
  },
  lastLoginAt: { kind: 'datetime', label: { zh: '最近登录', en: 'Last login' }, readOnly: true, sortable: true },
  createdAt: { kind: 'datetime', label: { zh: '创建时间', en: 'Created' }, readOnly: true, sortable: true, filter: 'range' },
} as const satisfies Record<string, FieldDef>;

const servicePhone = (n: 1 | 2 | 3): FieldDef => ({ kind: 'phone', phoneKind: 'serviceLine', label: { zh: `客服电话${n}`, en: `Service phone ${n}` }, list: n === 1 });

export const CompanyUser = defineResource({
  name: 'CompanyUser',
  label: { zh: '公司用户', en: 'Company user' },
  table: 'users',
  handWritten: true,
  views: [{ frame: 'userCompany' }],
  scope: { via: 'account', types: ['company', 'sales'] },
  writers: { userTypes: ['company'], message: { key: 'error.onlyCompanyManages', params: { what: { zh: '公司用户', en: 'company users' } } } },
  titleField: 'name',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    ...accountFields,
    type: { kind: 'enum', options: typeOptions(['company', 'sales']), label: { zh: '用户类型', en: 'User type' }, required: true, filter: 'equals', defaultValue: 'company' },
    company: { kind: 'text', label: { zh: '公司/部门', en: 'Company / department' }, max: 100 },
    sellerPosition: { kind: 'enum', options: SELLER_POSITION_OPTIONS, label: { zh: '销售级别', en: 'Seller level' }, filter: 'equals', help: { zh: '仅销售', en: 'Sales people only' } },
    salesTeamId: {
      kind: 'reference',
      family: 'SalesTeam',
      display: 'name',
      label: { zh: '销售团队', en: 'Sales team' },
      filter: 'equals',
      readOnly: true,
      help: { zh: '在销售团队页维护成员', en: 'Members are edited on the sales team page' },
    },
    email: { kind: 'text', label: { zh: '邮箱', en: 'Email' }, max: 100, list: false, pattern: '^[^@\\s]+@[^@\\s]+$', patternMessage: { zh: '邮箱格式不正确', en: 'not an email address' } },
    ...accountStateFields,
  },
  toggles: [{ field: 'enabled', button: 'enable' }],
  actions: [
    {
      // For a lost authenticator: the account then signs in with its password and enrols again.
      verb: 'ResetTwoFactor',
      button: 'password',
      label: { zh: '重置双重验证', en: 'Reset two-factor' },
      confirm: {
        zh: '清除该账号的身份验证器和恢复码，并结束它的所有登录会话？之后它凭密码登录并重新设置双重验证。',
        en: "Remove this account's authenticator and recovery codes and end all its sessions? It then signs in with its password and sets up two-factor again.",
      },
    },
  ],
});

export const ExternalUser = defineResource({
  name: 'ExternalUser',
  label: { zh: '外部用户', en: 'External user' },
  table: 'users',
  handWritten: true,
  views: [{ frame: 'userExternal' }],
  scope: { via: 'account', types: ['external', 'agent'] },
  writers: { userTypes: ['company', 'agent', 'child'], message: { key: 'account.onlyManagers', params: { what: { zh: '外部用户', en: 'external users' } } } },
  titleField: 'name',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    ...accountFields,
    type: {
      kind: 'enum',
      options: typeOptions(['external', 'agent']),
      label: { zh: '用户类型', en: 'User type' },
      filter: 'equals',
      defaultValue: 'external',
      fixed: true,
      help: { zh: '代理商只能由公司管理员创建', en: 'Only company administrators create agents' },
    },
    company: { kind: 'text', label: { zh: '单位', en: 'Organisation' }, max: 100, filter: 'name' },
    schoolIds: {
      kind: 'reference',
      family: 'School',
      display: 'schoolName',
      multiple: true,
      // Links to schools outside the caller's scope (another agent's) are kept and not shown.
      link: { table: 'user_schools', owner: 'userId', target: 'schoolId' },
      label: { zh: '绑定学校', en: 'Bound schools' },
      width: 260,
      help: { zh: '外部用户可见的学校；代理商的学校由学校的代理商决定', en: "The schools an external user sees; an agent's schools are those naming it as their agent" },
    },
    servicePhone1: servicePhone(1),
    servicePhone2: servicePhone(2),
    servicePhone3: servicePhone(3),
    agentMktMrchId: { kind: 'text', label: { zh: '代理商户号', en: 'Agent merchant id' }, max: 64, list: false, exported: true, probe: 'canSetAgentMerchantId' },
    agentMktMrchNm: { kind: 'text', label: { zh: '代理商户名称', en: 'Agent merchant name' }, max: 100, list: false, exported: true, probe: 'canSetAgentMerchantId' },
    ...accountStateFields,
  },
  toggles: [{ field: 'enabled', button: 'enable' }],
});

export const ChildUser = defineResource({
  name: 'ChildUser',
  label: { zh: '子账号', en: 'Child account' },
  table: 'users',
  handWritten: true,
  views: [{ frame: 'userChild', fixed: { type: 'child' } }],
  scope: { via: 'account', types: ['child'] },
  writers: { userTypes: ['company', 'agent'], message: { key: 'account.onlyManagers', params: { what: { zh: '子账号', en: 'child accounts' } } } },
  titleField: 'name',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    ...accountFields,
    parentId: {
      kind: 'reference',
      family: 'ExternalUser',
      display: 'name',
      optionsFilter: { type: 'agent' },
      label: { zh: '所属代理商', en: 'Agent' },
      filter: 'equals',
      help: { zh: '代理商创建的子账号属于它自己', en: 'A child account created by an agent belongs to that agent' },
    },
    company: { kind: 'text', label: { zh: '部门', en: 'Department' }, max: 100 },
    ...accountStateFields,
  },
  toggles: [{ field: 'enabled', button: 'enable' }],
});
