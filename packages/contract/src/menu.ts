/** Menu groups, frames (routes with fixed ids) and their button permission values. */

export const BUTTON_VALUES = [
  'add',
  'update',
  'delete',
  'export',
  'enable',
  'examine',
  'refund',
  'send',
  'hide',
  'show',
  'state',
  'print',
  'close',
  'password',
  'grant',
  'adjust',
  'import',
] as const;
export type ButtonValue = (typeof BUTTON_VALUES)[number];

export type PageKind = 'CRUD' | 'REPORT' | 'LOG' | 'CUSTOM';

export const BADGE_KEYS = [
  'schoolLicenseUnset',
  'licenseUnset',
  'feedbackUnanswered',
  'liveFeedbackPending',
  'refundApplied',
  'splitRuleUnset',
  'maintenanceOpen',
  'feverUnacknowledged',
] as const;
export type BadgeKey = (typeof BADGE_KEYS)[number];

export interface MenuGroup {
  id: number;
  key: string;
  zh: string;
  en: string;
  icon: string;
}

export interface FrameDef {
  fixedId: number;
  /** Route name, as in SEED-SPEC section 2. */
  index: string;
  groupId: number;
  zh: string;
  en: string;
  sort: number;
  kind: PageKind;
  buttons: readonly ButtonValue[];
  badge?: BadgeKey;
}

export const MENU_GROUPS: readonly MenuGroup[] = [
  { id: 1, key: 'home', zh: '首页', en: 'Home', icon: 'home' },
  { id: 2, key: 'users', zh: '用户', en: 'Users', icon: 'team' },
  { id: 3, key: 'sales', zh: '销售', en: 'Sales', icon: 'shop' },
  { id: 4, key: 'operations', zh: '运营', en: 'Operations', icon: 'appstore' },
  { id: 5, key: 'inventory', zh: '库存', en: 'Inventory', icon: 'database' },
  { id: 6, key: 'maintenance', zh: '运维', en: 'Maintenance', icon: 'tool' },
  { id: 7, key: 'finance', zh: '财务', en: 'Finance', icon: 'account-book' },
  { id: 8, key: 'system', zh: '系统', en: 'System', icon: 'setting' },
];

const CRUD: readonly ButtonValue[] = ['add', 'update', 'delete', 'export'];
const READ: readonly ButtonValue[] = ['export'];
/** Pages whose rows may also be imported from Excel (the family declares `import`). */
const CRUD_IMPORT: readonly ButtonValue[] = [...CRUD, 'import'];

type FrameRow = [
  fixedId: number,
  index: string,
  zh: string,
  en: string,
  kind: PageKind,
  buttons?: readonly ButtonValue[],
  badge?: BadgeKey,
];

const rows: FrameRow[] = [
  // Home
  [101, 'index', '首页', 'Home', 'CUSTOM', []],
  [102, 'systemView', '系统概览', 'System overview', 'REPORT', READ],
  [103, 'DataCenter', '数据中心', 'Data center', 'REPORT', READ],
  [104, 'jsc', '学校驾驶舱', 'School cockpit', 'CUSTOM', []],
  [105, 'displayLargeScreen', '数据大屏', 'Large screen', 'CUSTOM', []],
  [106, 'homeCustomization', '首页定制', 'Home customization', 'CUSTOM', ['update']],
  // Users
  [201, 'personSearch', '人员查询', 'Person search', 'CUSTOM', []],
  [202, 'studentInfo', '学生信息', 'Students', 'CRUD', CRUD_IMPORT],
  [203, 'parentUser', '家长用户', 'Parents', 'CRUD', [...CRUD_IMPORT, 'password', 'enable']],
  [204, 'teacherInfo', '教师信息', 'Teachers', 'CRUD', CRUD_IMPORT],
  [205, 'pickupInfo', '接送人信息', 'Pick-up persons', 'CRUD', CRUD_IMPORT],
  [206, 'misIdentifyPerson', '误识别人员', 'Misidentified persons', 'LOG', READ],
  [207, 'userTemperature', '体温异常', 'Temperature alerts', 'LOG', [...READ, 'examine'], 'feverUnacknowledged'],
  [208, 'developManage', '开发者管理', 'Developers', 'CRUD', [...CRUD, 'enable']],
  // Sales
  [301, 'schoolManage', '学校管理', 'Schools', 'CRUD', [...CRUD_IMPORT, 'state', 'examine', 'password'], 'schoolLicenseUnset'],
  [302, 'salesTeam', '销售团队', 'Sales teams', 'CRUD', CRUD],
  [303, 'sellArea', '销售区域', 'Sales areas', 'CRUD', CRUD],
  [304, 'agencyArea', '代理区域', 'Agent areas', 'CRUD', CRUD],
  [305, 'CCB_ServicePlatform', '第三方服务平台', 'Third-party platform', 'CRUD', [...CRUD, 'enable']],
  // Operations
  [401, 'appOpen', '启动页管理', 'Startup pages', 'CRUD', [...CRUD, 'enable']],
  [402, 'appImage', '海报管理', 'Posters', 'CRUD', [...CRUD, 'enable']],
  [403, 'appContentManage', 'App内容管理', 'App content', 'CRUD', CRUD],
  [404, 'appInformTemplate', '通知模板', 'Notice templates', 'CRUD', CRUD],
  [405, 'appFunctionManage', 'App功能管理', 'App functions', 'CRUD', [...CRUD, 'enable']],
  [406, 'appCoopPlatform', '合作平台', 'Partner platforms', 'CRUD', [...CRUD, 'enable']],
  [407, 'appInform', '通知公告', 'Notices', 'CRUD', [...CRUD, 'show']],
  [408, 'appMusicManage', '音乐管理', 'Music', 'CRUD', CRUD],
  [409, 'userHelp', '用户帮助', 'Help articles', 'CRUD', CRUD],
  [410, 'userBack', '用户反馈', 'User feedback', 'CRUD', [...CRUD, 'state'], 'feedbackUnanswered'],
  [411, 'liveFeedBack', '直播课反馈', 'Live-class feedback', 'CRUD', [...CRUD, 'state'], 'liveFeedbackPending'],
  [412, 'usualProblem', '常见问题', 'Common questions', 'CRUD', CRUD],
  [413, 'questionnaire', '问卷调查', 'Questionnaires', 'CRUD', CRUD],
  [414, 'setChatContent', '屏显文案', 'Screen texts', 'CRUD', CRUD],
  [415, 'terminalAd', '终端广告', 'Terminal ads', 'CRUD', [...CRUD, 'enable']],
  [416, 'goodsManage', '商品管理', 'Goods', 'CRUD', [...CRUD, 'enable']],
  [417, 'merchantManage', '商户管理', 'Merchants', 'CRUD', CRUD],
  [418, 'appCarouselChart', 'App轮播图', 'App carousel', 'CRUD', [...CRUD, 'enable']],
  [419, 'addressManage', '地址管理', 'Addresses', 'CRUD', CRUD],
  [420, 'rotationChartManage', '轮播图管理', 'Carousel ads', 'CRUD', [...CRUD, 'enable']],
  [421, 'classificationManage', '分类管理', 'Categories', 'CRUD', CRUD],
  [422, 'scallionRiceGoods', '葱米商品', 'Scallion-rice goods', 'CRUD', [...CRUD, 'enable']],
  [423, 'productReleaseList', '商品发布', 'Releases', 'CRUD', CRUD],
  [424, 'scallionRiceOrder', '葱米订单', 'Scallion-rice orders', 'CRUD', [...CRUD, 'close']],
  [425, 'mallOrderManage', '商城订单', 'Mall orders', 'CRUD', [...CRUD, 'close', 'refund']],
  [426, 'evaluateManage', '评价管理', 'Comments', 'CRUD', [...CRUD, 'state']],
  [427, 'couponManage', '优惠券管理', 'Coupons', 'CRUD', [...CRUD, 'enable', 'send']],
  [428, 'automaticBook', '自动成书', 'Automatic books', 'CRUD', CRUD],
  [429, 'albumTemplate', '相册模板', 'Album templates', 'CRUD', CRUD],
  [430, 'albumCustomized', '相册定制', 'Customised albums', 'CRUD', CRUD],
  [431, 'albumSkuManage', '相册规格', 'Album specs', 'CRUD', [...CRUD, 'enable']],
  [432, 'albumTask', '相册任务', 'Album tasks', 'CRUD', CRUD],
  [433, 'albumOrder', '相册订单', 'Album orders', 'CRUD', CRUD],
  [434, 'albumProduction', '相册制作', 'Album production', 'CRUD', [...READ, 'send', 'print', 'close']],
  [435, 'albumPriceManagement', '相册价格', 'Album prices', 'CRUD', CRUD],
  [436, 'albumElectronicOrder', '电子相册订单', 'Electronic album orders', 'CRUD', READ],
  [437, 'adverRotation', '广告轮播', 'Ad rotation', 'CRUD', [...CRUD, 'enable']],
  [438, 'directoryManage', '目录管理', 'Directories', 'CRUD', CRUD],
  [439, 'coursewareManage', '课件管理', 'Courseware', 'CRUD', CRUD],
  [440, 'uaStatistics', '终端类型统计', 'OS and version statistics', 'REPORT', READ],
  [441, 'userActTable', '用户活跃', 'User activity', 'REPORT', READ],
  [442, 'userStyleStatistics', '用户构成', 'User composition', 'REPORT', READ],
  [443, 'funStatistics', '功能统计', 'Function usage', 'REPORT', READ],
  [444, 'functionalTrends', '功能趋势', 'Function trends', 'REPORT', READ],
  [445, 'userStatistics', '用户统计', 'User statistics', 'REPORT', READ],
  // What the parent app reported about itself (AppUseEvent): the raw rows the app-use statistics roll up.
  [446, 'appUseLog', 'App使用日志', 'App use log', 'LOG', READ],
  // Inventory
  [501, 'singleProManage', '单品管理', 'Product models', 'CRUD', CRUD],
  [502, 'deviceInformation', '设备信息', 'Devices', 'CRUD', CRUD_IMPORT, 'licenseUnset'],
  [503, 'orderManage', '订单管理', 'Device orders', 'CRUD', [...CRUD, 'examine', 'send', 'state', 'close']],
  [504, 'equipmentDelivery', '设备发货', 'Deliveries', 'CRUD', CRUD],
  [505, 'warrantyManage', '质保管理', 'Warranties', 'CRUD', CRUD],
  [506, 'productStatistics', '产品统计', 'Product statistics', 'REPORT', READ],
  [507, 'orderStatistics', '订单统计', 'Order statistics', 'REPORT', READ],
  [508, 'warehousingStatistics', '出入库统计', 'Warehousing statistics', 'REPORT', READ],
  // Ops-maintenance
  [601, 'equipmentManage', '终端管理', 'Terminals', 'CRUD', [...CRUD, 'enable']],
  [602, 'codeManageA', '闸机授权码', 'Gate codes', 'CRUD', [...CRUD, 'enable'], 'licenseUnset'],
  [603, 'codeManageB', '考勤机授权码', 'Attendance-machine codes', 'CRUD', [...CRUD, 'enable'], 'licenseUnset'],
  [604, 'signCardManage', '签到卡管理', 'Sign cards', 'CRUD', [...CRUD, 'enable']],
  [605, 'versionManage', '终端版本管理', 'Terminal versions', 'CRUD', [...CRUD, 'enable']],
  [606, 'upVersion', '终端升级', 'Terminal upgrades', 'CRUD', [...CRUD, 'state']],
  [607, 'appVersionManage', 'App版本管理', 'App versions', 'CRUD', [...CRUD, 'enable']],
  [608, 'templateManage', '参数模板', 'Parameter templates', 'CRUD', CRUD],
  [609, 'identifySuccess', '识别成功记录', 'Recognitions', 'LOG', [...READ, 'hide']],
  [610, 'identifyWarn', '识别失败记录', 'Failed recognitions', 'LOG', [...READ, 'hide']],
  [611, 'terminalLog', '终端日志', 'Terminal logs', 'LOG', READ],
  [612, 'platLog', '平台日志', 'Platform logs', 'LOG', READ],
  [613, 'mainOperationLog', '操作日志', 'Operation log', 'LOG', READ],
  [614, 'operationLog', '运维日报', 'Ops daily report', 'REPORT', READ],
  [615, 'equipmentMaintenance', '设备维修', 'Maintenance tickets', 'CRUD', [...CRUD, 'state'], 'maintenanceOpen'],
  [616, 'nvrManage', 'NVR管理', 'NVRs', 'CRUD', CRUD],
  [617, 'holidayManage', '节假日管理', 'Holidays', 'CRUD', CRUD],
  [618, 'schoolStatistics', '学校考勤统计', 'School attendance', 'REPORT', READ],
  [619, 'stuMonthStatistic', '学生月度统计', 'Student monthly attendance', 'REPORT', READ],
  // Finance
  [701, 'appChargeManage', '收费项目', 'Charge items', 'CRUD', CRUD],
  [702, 'wonderfulClassCharge', '精彩课堂收费', 'Live-class charges', 'CRUD', [...CRUD, 'password']],
  [703, 'comprehensiveCharge', '综合收费', 'Comprehensive charges', 'CRUD', CRUD],
  [704, 'payDetailManage', '支付明细', 'Payments', 'CRUD', READ],
  [705, 'schoolMerchantsManage', '学校商户', 'School merchants', 'CRUD', [...CRUD, 'enable', 'adjust'], 'splitRuleUnset'],
  [706, 'refundManage', '退款管理', 'Refunds', 'CRUD', [...CRUD, 'refund'], 'refundApplied'],
  [707, 'transactionSummaryDay', '日交易汇总', 'Daily transactions', 'REPORT', READ],
  [708, 'transactionSummaryMonth', '月交易汇总', 'Monthly transactions', 'REPORT', READ],
  // The safe-campus service each child holds; `grant` extends one by hand (a complaint), with a reason.
  [709, 'safeCampusService', '平安校园服务', 'Safe-campus service', 'CRUD', ['add', 'delete', 'export', 'grant']],
  // System
  [801, 'userCompany', '公司用户', 'Company users', 'CRUD', [...CRUD, 'enable', 'password']],
  [802, 'userExternal', '外部用户', 'External users', 'CRUD', [...CRUD, 'enable', 'password']],
  [803, 'userChild', '子账号', 'Child accounts', 'CRUD', [...CRUD, 'enable', 'password']],
  // export: the login log (LoginLog) on this page.
  [804, 'jurisdictionManage', '权限管理', 'Permissions', 'CUSTOM', ['update', 'export']],
  [805, 'personalInformation', '个人信息', 'Personal information', 'CUSTOM', []],
  // The SMS outbox (SmsOutbox): codes the default provider wrote, so reset flows finish without a gateway.
  // Live verification codes: read on the page, never exported.
  [806, 'smsOutbox', '短信发件箱', 'SMS outbox', 'LOG', []],
  // The push outbox (PushDelivery): each push to a parent's phone, its attempts and its last error.
  [807, 'pushOutbox', '推送发件箱', 'Push outbox', 'LOG', []],
];

export const FRAMES: readonly FrameDef[] = rows.map(([fixedId, index, zh, en, kind, buttons = [], badge]) => ({
  fixedId,
  index,
  groupId: Math.floor(fixedId / 100),
  zh,
  en,
  sort: fixedId % 100,
  kind,
  buttons,
  ...(badge ? { badge } : {}),
}));

export const FRAME_BY_INDEX: ReadonlyMap<string, FrameDef> = new Map(FRAMES.map((f) => [f.index, f]));
export const FRAME_BY_ID: ReadonlyMap<number, FrameDef> = new Map(FRAMES.map((f) => [f.fixedId, f]));

/** Routes every logged-in user may open, whatever the grant (SEED-SPEC section 5). */
export const ALWAYS_ALLOWED_ROUTES = ['index', 'personalInformation', 'refresh'] as const;

/** Routes hidden and blocked while sign-card mode is off. */
export const SIGN_CARD_MODE_ROUTES = ['codeManageA', 'codeManageB'] as const;

/** Looks a frame up by route name; throws for a name that is not declared, so typos fail at start. */
export function frameOf(index: string): FrameDef {
  const frame = FRAME_BY_INDEX.get(index);
  if (!frame) throw new Error(`Unknown frame '${index}'`);
  return frame;
}
