/**
 * Finance: what parents pay for (charge items), the service each school sells and how its payments
 * are split (service configs with split rules), the payments themselves and the agent funds ledger
 * those payments post to. Money is integer fen everywhere, shown as yuan with two decimals.
 */
import { enabledField, schoolRef } from './common.js';
import { defineResource } from './define.js';

/** How a parent paid: the provider behind the payment. */
export const PAYMENT_CHANNEL_OPTIONS = [
  { value: 'wechat', zh: '微信支付', en: 'WeChat Pay', color: 'green' },
  { value: 'alipay', zh: '支付宝', en: 'Alipay', color: 'blue' },
  { value: 'ccb', zh: '建设银行', en: 'CCB (bank)', color: 'geekblue' },
  { value: 'offline', zh: '线下', en: 'Offline', color: 'default' },
] as const;
export type PaymentChannel = (typeof PAYMENT_CHANNEL_OPTIONS)[number]['value'];

/** Whose money an agent funds account holds. */
export const FUND_ACCOUNT_TYPE_OPTIONS = [
  { value: 1, zh: '公司', en: 'Company', color: 'purple' },
  { value: 2, zh: '代理商', en: 'Agent', color: 'blue' },
  { value: 3, zh: '学校', en: 'School', color: 'green' },
  { value: 4, zh: '商城商户', en: 'Mall merchant', color: 'orange' },
] as const;
export const FUND_ACCOUNT_COMPANY = 1;
export const FUND_ACCOUNT_AGENT = 2;
export const FUND_ACCOUNT_SCHOOL = 3;
/** A mall merchant's account: its share of the payments for its goods (issue 29). */
export const FUND_ACCOUNT_MERCHANT = 4;

/** Why a ledger entry exists. */
export const FUND_ENTRY_KIND_OPTIONS = [
  { value: 1, zh: '支付分账', en: 'Payment split', color: 'green' },
  { value: 2, zh: '退款冲回', en: 'Refund reversal', color: 'orange' },
  { value: 3, zh: '手工调整', en: 'Adjustment', color: 'purple' },
] as const;
export const FUND_ENTRY_PAYMENT = 1;
export const FUND_ENTRY_REFUND = 2;
export const FUND_ENTRY_ADJUSTMENT = 3;

export const SERVICE_MODE_OPTIONS = [
  { value: 1, zh: '家长付费', en: 'Parents pay' },
  { value: 2, zh: '学校统一付费', en: 'School pays' },
  { value: 3, zh: '免费', en: 'Free' },
] as const;

const percent = (zh: string, en: string) => ({ kind: 'number' as const, integer: true, min: 0, max: 100, required: true, label: { zh, en } });

export const AppChargeItem = defineResource({
  name: 'AppChargeItem',
  label: { zh: '收费项目', en: 'Charge item' },
  table: 'app_charge_items',
  views: [{ frame: 'appChargeManage' }],
  scope: { via: 'global' },
  titleField: 'name',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    name: { kind: 'text', label: { zh: '项目名称', en: 'Name' }, required: true, max: 100, unique: true, filter: 'name', sortable: true },
    unitPrice: { kind: 'money', label: { zh: '单价', en: 'Unit price' }, required: true, min: 1, sortable: true },
    serviceMonths: { kind: 'number', integer: true, min: 1, max: 120, label: { zh: '服务月数', en: 'Service months' }, required: true, sortable: true },
    remark: { kind: 'textarea', label: { zh: '备注', en: 'Remark' }, max: 500 },
    enabled: enabledField(),
    createdAt: { kind: 'datetime', label: { zh: '创建时间', en: 'Created' }, readOnly: true, sortable: true },
  },
  toggles: [{ field: 'enabled', button: 'update' }],
});

export const ServiceConfig = defineResource({
  name: 'ServiceConfig',
  label: { zh: '学校商户', en: 'School merchant' },
  table: 'service_configs',
  views: [{ frame: 'schoolMerchantsManage' }],
  scope: { via: 'school', field: 'schoolId' },
  titleField: 'merchantNo',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    schoolId: schoolRef({ unique: true }),
    merchantNo: { kind: 'text', label: { zh: '商户号', en: 'Merchant no.' }, max: 64, filter: 'equals' },
    enabled: enabledField(),
    parentCount: { kind: 'number', integer: true, min: 0, max: 100_000, label: { zh: '家长数', en: 'Parents' }, defaultValue: 0, sortable: true },
    mode: { kind: 'enum', options: SERVICE_MODE_OPTIONS, label: { zh: '收费模式', en: 'Mode' }, required: true, filter: 'equals', defaultValue: 1 },
    tryDays: { kind: 'number', integer: true, min: 0, max: 365, label: { zh: '试用天数', en: 'Trial days' }, defaultValue: 0 },
    refundBasePrice: { kind: 'money', label: { zh: '退款基准价', en: 'Refund base price' } },
    offlineUnitPrice: { kind: 'money', label: { zh: '线下单价', en: 'Offline unit price' } },
    discountDays: { kind: 'number', integer: true, min: 0, max: 365, label: { zh: '优惠天数', en: 'Discount days' }, defaultValue: 0 },
    // The rules in force over time; a payment keeps the percentages of the rule in force when it was paid.
    splitRules: {
      kind: 'lines',
      table: 'service_config_split_rules',
      label: { zh: '分账规则', en: 'Split rules' },
      max: 50,
      list: false,
      fields: {
        effectiveFrom: { kind: 'date', label: { zh: '生效日期', en: 'Effective from' }, required: true },
        companyPercent: percent('公司%', 'Company %'),
        agentPercent: percent('代理商%', 'Agent %'),
        schoolPercent: percent('学校%', 'School %'),
      },
      // Each rule divides a payment whole; one rule per effective date.
      rules: {
        sums: [{ fields: ['companyPercent', 'agentPercent', 'schoolPercent'], equals: 100, message: 'finance.splitNot100' }],
        distinct: [{ field: 'effectiveFrom', message: 'finance.splitDateRepeated' }],
      },
    },
    // Whether any split rule exists: without one every payment stays with the company (the `splitRuleUnset` badge).
    splitRuleSet: {
      kind: 'bool',
      computed: true,
      readOnly: true,
      list: false,
      label: { zh: '分账规则', en: 'Split rule' },
      trueLabel: { zh: '已设置', en: 'Set' },
      falseLabel: { zh: '未设置', en: 'Not set' },
      filter: 'equals',
    },
    // The school's parents by what they hold today (parents/figures.ts): read with the page, never stored.
    parentsInService: { kind: 'number', computed: true, readOnly: true, label: { zh: '服务中家长', en: 'Parents in service' } },
    parentsInTrial: { kind: 'number', computed: true, readOnly: true, label: { zh: '试用中家长', en: 'Parents in trial' } },
    parentsLapsed: { kind: 'number', computed: true, readOnly: true, label: { zh: '已过期家长', en: 'Parents lapsed' } },
    createdAt: { kind: 'datetime', label: { zh: '创建时间', en: 'Created' }, readOnly: true, sortable: true },
  },
  toggles: [{ field: 'enabled', button: 'enable' }],
});

export const PaymentRecord = defineResource({
  name: 'PaymentRecord',
  label: { zh: '支付明细', en: 'Payment' },
  table: 'payment_records',
  views: [{ frame: 'payDetailManage' }],
  scope: { via: 'school', field: 'schoolId' },
  // Payments come from the apps and the providers, never typed: read-only rows by paid time, kept for ever.
  mode: 'log',
  log: { timeField: 'paidAt', defaultDays: 30 },
  titleField: 'outTradeNo',
  fields: {
    paidAt: { kind: 'datetime', label: { zh: '支付时间', en: 'Paid at' }, readOnly: true, filter: 'range' },
    outTradeNo: { kind: 'text', label: { zh: '商户订单号', en: 'Order no.' }, readOnly: true, unique: true, max: 64, filter: 'equals', width: 200 },
    tradeNo: { kind: 'text', label: { zh: '支付流水号', en: 'Provider trade no.' }, readOnly: true, max: 64, filter: 'equals', width: 220 },
    channel: { kind: 'enum', options: PAYMENT_CHANNEL_OPTIONS, label: { zh: '支付渠道', en: 'Channel' }, readOnly: true, filter: 'equals' },
    schoolId: schoolRef({ readOnly: true }),
    agentId: { kind: 'reference', family: 'User', display: 'name', optionsFilter: { type: 'agent' }, label: { zh: '代理商', en: 'Agent' }, readOnly: true, filter: 'equals' },
    parentId: { kind: 'reference', family: 'Parent', display: 'name', label: { zh: '家长', en: 'Parent' }, readOnly: true, filter: 'equals' },
    studentId: { kind: 'reference', family: 'Student', display: 'name', label: { zh: '学生', en: 'Student' }, readOnly: true, filter: 'equals' },
    chargeItemId: { kind: 'reference', family: 'AppChargeItem', display: 'name', label: { zh: '收费项目', en: 'Charge item' }, readOnly: true, filter: 'equals' },
    amount: { kind: 'money', label: { zh: '支付金额', en: 'Amount' }, readOnly: true },
    refundedAmount: { kind: 'money', label: { zh: '已退金额', en: 'Refunded' }, readOnly: true, defaultValue: 0 },
    serviceFrom: { kind: 'date', label: { zh: '服务开始', en: 'Service from' }, readOnly: true },
    serviceTo: { kind: 'date', label: { zh: '服务结束', en: 'Service to' }, readOnly: true },
    companyPercent: { kind: 'number', integer: true, label: { zh: '公司%', en: 'Company %' }, readOnly: true, list: false },
    agentPercent: { kind: 'number', integer: true, label: { zh: '代理商%', en: 'Agent %' }, readOnly: true, list: false },
    schoolPercent: { kind: 'number', integer: true, label: { zh: '学校%', en: 'School %' }, readOnly: true, list: false },
  },
  // A provider's trade number is one payment per channel: a retried notification never pays twice.
  uniqueIndexes: [['channel', 'tradeNo']],
});

export const AgentFund = defineResource({
  name: 'AgentFund',
  label: { zh: '资金账户', en: 'Fund account' },
  table: 'agent_fund_accounts',
  views: [{ frame: 'schoolMerchantsManage' }],
  // A school's account is the school's; an agent's account (no school) its agent's and that agent's child accounts' to read; the company's only company staff see.
  scope: { via: 'school', field: 'schoolId', agentOwner: { field: 'agentId' } },
  titleField: 'name',
  defaultSort: { field: 'id', order: 'asc' },
  fields: {
    name: { kind: 'text', label: { zh: '账户名称', en: 'Account' }, required: true, max: 100, filter: 'name' },
    // Who an account belongs to is its identity: its entries were posted to that owner.
    accountType: { kind: 'enum', options: FUND_ACCOUNT_TYPE_OPTIONS, label: { zh: '账户类型', en: 'Type' }, required: true, fixed: true, filter: 'equals' },
    agentId: {
      kind: 'reference',
      family: 'User',
      display: 'name',
      optionsFilter: { type: 'agent' },
      label: { zh: '代理商', en: 'Agent' },
      filter: 'equals',
      fixed: true,
      requiredWhen: { field: 'accountType', in: [FUND_ACCOUNT_AGENT, FUND_ACCOUNT_MERCHANT] },
    },
    schoolId: schoolRef({ required: false, fixed: true, requiredWhen: { field: 'accountType', in: [FUND_ACCOUNT_SCHOOL] } }),
    // Kept by the database from the entries (never written by a call): see drizzle "agent funds".
    balance: { kind: 'money', label: { zh: '余额', en: 'Balance' }, readOnly: true, sortable: true, defaultValue: 0 },
    accountKey: { kind: 'text', label: { zh: '账户键', en: 'Account key' }, readOnly: true, unique: true, list: false, max: 40 },
    enabled: enabledField(),
    remark: { kind: 'textarea', label: { zh: '备注', en: 'Remark' }, max: 500, list: false },
  },
  toggles: [{ field: 'enabled', button: 'enable' }],
  actions: [
    {
      verb: 'Adjust',
      button: 'adjust',
      label: { zh: '资金调整', en: 'Adjust' },
      fields: {
        amount: {
          kind: 'money',
          min: -1_000_000_000,
          max: 1_000_000_000,
          required: true,
          label: { zh: '调整金额', en: 'Amount' },
          help: { zh: '正数入账，负数出账', en: 'Positive credits the account, negative debits it' },
        },
        reason: { kind: 'textarea', label: { zh: '调整原因', en: 'Reason' }, required: true, max: 500 },
      },
      confirm: { zh: '调整将记为一条不可修改的流水，确定吗？', en: 'The adjustment is recorded as an entry that cannot be changed. Continue?' },
    },
  ],
});

export const AgentFundEntry = defineResource({
  name: 'AgentFundEntry',
  label: { zh: '资金流水', en: 'Fund entries' },
  table: 'agent_fund_entries',
  views: [{ frame: 'schoolMerchantsManage' }],
  // The account's school or agent: an entry is visible exactly where its account is.
  scope: { via: 'school', field: 'schoolId', agentOwner: { field: 'agentId', through: 'accountId' } },
  mode: 'log',
  log: { timeField: 'postedAt', defaultDays: 30 },
  titleField: 'reason',
  fields: {
    postedAt: { kind: 'datetime', label: { zh: '记账时间', en: 'Posted at' }, readOnly: true, filter: 'range' },
    accountId: { kind: 'reference', family: 'AgentFund', display: 'name', label: { zh: '账户', en: 'Account' }, readOnly: true, filter: 'equals' },
    accountType: { kind: 'enum', options: FUND_ACCOUNT_TYPE_OPTIONS, label: { zh: '账户类型', en: 'Account type' }, readOnly: true, filter: 'equals' },
    schoolId: schoolRef({ readOnly: true, required: false }),
    kind: { kind: 'enum', options: FUND_ENTRY_KIND_OPTIONS, label: { zh: '类型', en: 'Kind' }, readOnly: true, filter: 'equals' },
    amount: { kind: 'money', label: { zh: '金额', en: 'Amount' }, readOnly: true, min: -1_000_000_000 },
    paymentId: { kind: 'reference', family: 'PaymentRecord', display: 'outTradeNo', label: { zh: '支付单', en: 'Payment' }, readOnly: true, filter: 'equals' },
    refundId: { kind: 'number', integer: true, label: { zh: '退款单', en: 'Refund' }, readOnly: true, filter: 'equals' },
    reason: { kind: 'text', label: { zh: '说明', en: 'Reason' }, readOnly: true, max: 500 },
    createdBy: { kind: 'reference', family: 'User', display: 'name', label: { zh: '操作人', en: 'By' }, readOnly: true, list: false },
  },
});

/** Live-class charges a school sells (wonderfulClassCharge); the class's viewing password is set behind its own button. */
export const SchoolCharge = defineResource({
  name: 'SchoolCharge',
  label: { zh: '精彩课堂收费', en: 'Live-class charge' },
  table: 'school_charges',
  views: [{ frame: 'wonderfulClassCharge' }],
  scope: { via: 'school', field: 'schoolId' },
  titleField: 'name',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    schoolId: schoolRef(),
    name: { kind: 'text', label: { zh: '课程名称', en: 'Class' }, required: true, max: 100, filter: 'name', sortable: true },
    unitPrice: { kind: 'money', label: { zh: '价格', en: 'Price' }, required: true, min: 1, sortable: true },
    serviceMonths: { kind: 'number', integer: true, min: 1, max: 120, label: { zh: '服务月数', en: 'Service months' }, required: true },
    // Write-only: parents enter it in the app to watch; set only by the `password` button (UpdatePassword).
    password: { kind: 'password', label: { zh: '观看密码', en: 'Viewing password' }, form: false },
    enabled: enabledField(),
    remark: { kind: 'textarea', label: { zh: '备注', en: 'Remark' }, max: 500, list: false },
    createdAt: { kind: 'datetime', label: { zh: '创建时间', en: 'Created' }, readOnly: true, sortable: true },
  },
  // The frame has no `enable` button: switching a charge on or off is an edit.
  toggles: [{ field: 'enabled', button: 'update' }],
  actions: [
    {
      verb: 'UpdatePassword',
      button: 'password',
      label: { zh: '设置观看密码', en: 'Set viewing password' },
      fields: { password: { kind: 'password', label: { zh: '观看密码', en: 'Viewing password' }, required: true } },
    },
  ],
});

/** A bundle of charge items sold together at a bundle price (comprehensiveCharge). */
export const ComprehensiveCharge = defineResource({
  name: 'ComprehensiveCharge',
  label: { zh: '综合收费', en: 'Comprehensive charge' },
  table: 'comprehensive_charges',
  views: [{ frame: 'comprehensiveCharge' }],
  scope: { via: 'global' },
  titleField: 'name',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    name: { kind: 'text', label: { zh: '套餐名称', en: 'Bundle' }, required: true, max: 100, unique: true, filter: 'name', sortable: true },
    items: {
      kind: 'lines',
      table: 'comprehensive_charge_items',
      label: { zh: '包含项目', en: 'Charge items' },
      required: true,
      min: 1,
      max: 20,
      list: false,
      fields: {
        chargeItemId: { kind: 'reference', family: 'AppChargeItem', display: 'name', label: { zh: '收费项目', en: 'Charge item' }, required: true },
        quantity: { kind: 'number', label: { zh: '数量', en: 'Quantity' }, required: true, min: 1, max: 100, defaultValue: 1 },
        unitPrice: { kind: 'money', label: { zh: '单价', en: 'Unit price' }, readOnly: true },
        amount: { kind: 'money', label: { zh: '金额', en: 'Amount' }, readOnly: true },
      },
      amount: { quantity: 'quantity', unitPrice: 'unitPrice', into: 'amount', total: 'listPrice', priceFrom: { reference: 'chargeItemId', field: 'unitPrice' } },
    },
    // The items at their own prices, summed by the server; the bundle sells at bundlePrice.
    listPrice: { kind: 'money', label: { zh: '原价合计', en: 'List price' }, readOnly: true },
    bundlePrice: { kind: 'money', label: { zh: '套餐价', en: 'Bundle price' }, required: true, min: 1, sortable: true },
    enabled: enabledField(),
    remark: { kind: 'textarea', label: { zh: '备注', en: 'Remark' }, max: 500, list: false },
    createdAt: { kind: 'datetime', label: { zh: '创建时间', en: 'Created' }, readOnly: true, sortable: true },
  },
  toggles: [{ field: 'enabled', button: 'update' }],
});
