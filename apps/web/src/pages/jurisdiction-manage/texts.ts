/** Texts of jurisdictionManage, kept beside the page (zh-CN first, as the product). */
import type { Label } from '@campus/contract';

export const TEXT = {
  tabGrants: { zh: '功能权限', en: 'Grants' },
  tabProbes: { zh: '可见性', en: 'Visibility' },
  tabLoginLog: { zh: '登录日志', en: 'Login log' },
  byType: { zh: '按用户类型', en: 'By user type' },
  byUser: { zh: '按用户', en: 'By user' },
  pickType: { zh: '选择用户类型', en: 'Choose a user type' },
  pickUser: { zh: '搜索账号或姓名', en: 'Search an account or a name' },
  pickFirst: { zh: '先选择用户类型或用户', en: 'Choose a user type or a user first' },
  ownGrant: { zh: '独立授权', en: 'Own grant' },
  typeGrant: { zh: '沿用类型权限', en: 'Follows its type' },
  ownGrantHelp: {
    zh: '该用户有独立授权，替代其用户类型的权限。',
    en: "This user has a grant of its own, which replaces its type's grant.",
  },
  typeGrantHelp: {
    zh: '该用户沿用用户类型「{type}」的权限；保存后改为独立授权。',
    en: 'This user holds the grant of its type "{type}"; saving gives it a grant of its own.',
  },
  typeHelp: {
    zh: '修改后，该类型所有未设独立授权的用户在下一次操作时生效，无需重新登录。',
    en: "Applies to every user of this type without a grant of its own, at their next call, without a new login.",
  },
  agentHelp: {
    zh: '只能授予您自己拥有的功能和按钮；子账号的权限始终不超过您的权限。',
    en: 'You can grant only the frames and buttons you hold yourself; a child account never exceeds your grant.',
  },
  childHelp: {
    zh: '子账号的实际权限不超过其代理商的权限。',
    en: "A child account never holds more than its agent's grant.",
  },
  save: { zh: '保存权限', en: 'Save grant' },
  saved: { zh: '权限已保存，用户下一次操作时生效', en: 'Grant saved; it applies at the user’s next call' },
  reset: { zh: '恢复为类型权限', en: 'Reset to type grant' },
  resetConfirm: {
    zh: '删除「{user}」的独立授权，恢复为用户类型的权限？',
    en: 'Drop the own grant of "{user}" and give it its type\'s grant again?',
  },
  resetDone: { zh: '已恢复为类型权限', en: 'Reset to the type grant' },
  expandAll: { zh: '全部展开', en: 'Expand all' },
  collapseAll: { zh: '全部收起', en: 'Collapse all' },
  clearAll: { zh: '清空', en: 'Clear all' },
  view: { zh: '查看', en: 'View' },
  alwaysAllowed: { zh: '始终可用', en: 'Always allowed' },
  summary: { zh: '已授权 {frames} 个功能', en: '{frames} frames granted' },
  unsaved: { zh: '有未保存的修改', en: 'Unsaved changes' },
  disabled: { zh: '已停用', en: 'Disabled' },
  probesHelpType: {
    zh: '该类型所有用户的可见性开关；单个用户可另行设置。',
    en: 'Visibility switches of every user of this type; one user may be set apart.',
  },
  probesHelpUser: {
    zh: '「跟随类型」的开关取用户类型的值。',
    en: 'Switches left on "follow type" take the value of the user type.',
  },
  followType: { zh: '跟随类型（{value}）', en: 'Follow type ({value})' },
  on: { zh: '开', en: 'On' },
  off: { zh: '关', en: 'Off' },
  probesSaved: { zh: '可见性已保存', en: 'Visibility saved' },
  saveProbes: { zh: '保存', en: 'Save' },
  probesReset: { zh: '全部跟随类型', en: 'Follow the type for all' },
  probe: { zh: '开关', en: 'Switch' },
  value: { zh: '取值', en: 'Value' },
  companyOnly: { zh: '仅公司管理员可用', en: 'Company administrators only' },
} satisfies Record<string, Label>;

/** Names and meanings of the configurable visibility probes. */
export const PROBE_LABELS: Record<string, { name: Label; help: Label }> = {
  canSetLicense: { name: { zh: '可设置授权码', en: 'Can set licence codes' }, help: { zh: '授权码的新增和启用', en: 'Add and enable licence codes' } },
  canSetAgentMerchantId: { name: { zh: '可设置代理商户号', en: 'Can set agent merchant ids' }, help: { zh: '外部用户页的代理商户号和名称', en: 'Agent merchant id and name on external users' } },
  canUpdateParamConfigs: { name: { zh: '可修改参数配置', en: 'Can update parameter configs' }, help: { zh: '终端参数模板', en: 'Terminal parameter templates' } },
  canShowOffline: { name: { zh: '显示离线状态', en: 'Show offline state' }, help: { zh: '终端在线/离线', en: 'Terminals online / offline' } },
  canShowOrdinaryLicenseMenu: { name: { zh: '显示普通授权菜单', en: 'Show the ordinary licence menu' }, help: { zh: '授权码相关菜单', en: 'Licence code menus' } },
  canShowThirdPartyType: { name: { zh: '显示第三方类型', en: 'Show third-party type' }, help: { zh: '第三方平台类型字段', en: 'Third-party platform type fields' } },
  canShowLeftSearchOptions: { name: { zh: '显示左侧搜索项', en: 'Show left search options' }, help: { zh: '页面左侧的筛选树', en: 'The filter tree left of the pages' } },
  hideAmountColumns: { name: { zh: '隐藏金额列', en: 'Hide amount columns' }, help: { zh: '表格和导出中不显示金额', en: 'Money is left out of tables and exports' } },
  canSetParamOptions: { name: { zh: '可设置参数选项', en: 'Can set parameter options' }, help: { zh: '参数的可选值', en: 'The choices of parameters' } },
};
