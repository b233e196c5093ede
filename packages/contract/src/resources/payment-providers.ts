/**
 * Payment providers (issue 10): every call the platform makes to a provider — pay, query, refund,
 * refund query — and every notification it receives is one row of the provider call log, which
 * company users read as a tab of refundManage. The rows come from the server only.
 */
import { defineResource, type EnumOption } from './define.js';

export const PAYMENT_PROVIDER_OPTIONS = [
  { value: 'demo', zh: '演示通道', en: 'Demo', color: 'default' },
  { value: 'wechatpay', zh: '微信支付', en: 'WeChat Pay', color: 'green' },
] as const satisfies readonly EnumOption[];
export type PaymentProviderName = (typeof PAYMENT_PROVIDER_OPTIONS)[number]['value'];

export const PROVIDER_OPERATION_OPTIONS = [
  { value: 'pay', zh: '下单', en: 'Pay' },
  { value: 'query', zh: '查询支付', en: 'Query payment' },
  { value: 'refund', zh: '退款', en: 'Refund' },
  { value: 'refundQuery', zh: '查询退款', en: 'Query refund' },
  { value: 'notify', zh: '回调通知', en: 'Notification' },
] as const satisfies readonly EnumOption[];
export type ProviderOperation = (typeof PROVIDER_OPERATION_OPTIONS)[number]['value'];

/**
 * How a call ended: `ok` answered and done; `pending` accepted, still processing; `failed` refused
 * with the provider's message; `unknown` no usable answer (timeout, network, 5xx) — the outcome is
 * asked again later; `rejected` a notification whose signature did not verify.
 */
export const PROVIDER_CALL_OUTCOME_OPTIONS = [
  { value: 'ok', zh: '成功', en: 'OK', color: 'success' },
  { value: 'pending', zh: '处理中', en: 'Pending', color: 'processing' },
  { value: 'failed', zh: '失败', en: 'Failed', color: 'error' },
  { value: 'unknown', zh: '未知/超时', en: 'Unknown / timeout', color: 'warning' },
  { value: 'rejected', zh: '验签失败', en: 'Signature refused', color: 'magenta' },
] as const satisfies readonly EnumOption[];
export type ProviderCallOutcome = (typeof PROVIDER_CALL_OUTCOME_OPTIONS)[number]['value'];

export const PaymentProviderCall = defineResource({
  name: 'PaymentProviderCall',
  label: { zh: '支付通道调用记录', en: 'Payment provider calls' },
  table: 'payment_provider_calls',
  views: [{ frame: 'refundManage' }],
  scope: { via: 'global' },
  // Requests and answers name parents' payments: company staff only, whatever an agent's grant holds.
  userTypes: ['company'],
  mode: 'log',
  log: { timeField: 'createdAt', defaultDays: 7, retentionDays: 365 },
  titleField: 'reference',
  fields: {
    createdAt: { kind: 'datetime', label: { zh: '时间', en: 'Time' }, readOnly: true, filter: 'range', width: 170 },
    provider: { kind: 'enum', options: PAYMENT_PROVIDER_OPTIONS, label: { zh: '通道', en: 'Provider' }, filter: 'equals', width: 110 },
    operation: { kind: 'enum', options: PROVIDER_OPERATION_OPTIONS, label: { zh: '操作', en: 'Operation' }, filter: 'equals', width: 110 },
    // The merchant's number the call is about: out_trade_no for payments, out_refund_no for refunds.
    reference: { kind: 'text', label: { zh: '单号', en: 'Reference' }, max: 64, filter: 'code', width: 220 },
    outcome: { kind: 'enum', options: PROVIDER_CALL_OUTCOME_OPTIONS, label: { zh: '结果', en: 'Outcome' }, filter: 'equals', width: 120 },
    message: { kind: 'text', label: { zh: '说明', en: 'Message' }, max: 500, width: 260 },
    durationMs: { kind: 'number', label: { zh: '耗时(毫秒)', en: 'Duration (ms)' }, width: 110 },
    request: { kind: 'json', label: { zh: '请求', en: 'Request' }, list: false },
    response: { kind: 'json', label: { zh: '应答', en: 'Answer' }, list: false },
  },
});
