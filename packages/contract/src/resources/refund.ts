/**
 * Refunds (refundManage, issue 10): a parent applies for a refund of a payment; an operator refunds
 * it in full or in part with the refund password, or rejects or closes it. A refund in flight
 * (`refunding`) waits on the provider; a job asks the provider until it settles (succeeded | failed),
 * and a failure may be retried under the same refund number, so the provider never refunds twice.
 */
import { schoolRef } from './common.js';
import { defineResource, type EnumOption } from './define.js';
import { PAYMENT_PROVIDER_OPTIONS } from './payment-providers.js';

export const REFUND_APPLIED = 1;
export const REFUND_REFUNDING = 2;
export const REFUND_SUCCEEDED = 3;
export const REFUND_FAILED = 4;
export const REFUND_REJECTED = 5;
export const REFUND_CLOSED = 6;

export const REFUND_STATE_OPTIONS = [
  { value: REFUND_APPLIED, zh: '已申请', en: 'Applied', color: 'gold' },
  { value: REFUND_REFUNDING, zh: '退款中', en: 'Refunding', color: 'processing' },
  { value: REFUND_SUCCEEDED, zh: '退款成功', en: 'Refunded', color: 'success' },
  { value: REFUND_FAILED, zh: '退款失败', en: 'Failed', color: 'error' },
  { value: REFUND_REJECTED, zh: '已驳回', en: 'Rejected', color: 'default' },
  { value: REFUND_CLOSED, zh: '已关闭', en: 'Closed', color: 'default' },
] as const satisfies readonly EnumOption[];

/** At most this many refunds (partial or full) of one payment ever leave for the provider. */
export const MAX_REFUNDS_PER_PAYMENT = 50;

const remark = { kind: 'textarea', label: { zh: '备注', en: 'Remark' }, max: 200 } as const;

export const Refund = defineResource({
  name: 'Refund',
  label: { zh: '退款', en: 'Refund' },
  table: 'refunds',
  views: [{ frame: 'refundManage' }],
  scope: { via: 'school', field: 'schoolId' },
  titleField: 'outRefundNo',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    paymentId: { kind: 'reference', family: 'PaymentRecord', display: 'outTradeNo', label: { zh: '支付订单', en: 'Payment' }, required: true, filter: 'equals', width: 200 },
    schoolId: schoolRef({ from: 'paymentId' }),
    // What the approver approves: an application asks for all that is left of its payment until an
    // operator sends a refund (then: the amount sent). Read with the row (apps/server/src/resources/refund.ts).
    // Money before the long text columns, so a narrow window never hides it under the actions.
    askedAmount: { kind: 'money', computed: true, label: { zh: '申请金额', en: 'Amount asked' }, width: 120 },
    refundAmount: { kind: 'money', label: { zh: '退款金额', en: 'Refunded' }, readOnly: true, width: 110 },
    state: { kind: 'enum', options: REFUND_STATE_OPTIONS, label: { zh: '状态', en: 'State' }, readOnly: true, filter: 'equals', width: 100 },
    reason: { kind: 'textarea', label: { zh: '申请原因', en: 'Reason' }, required: true, max: 200, width: 200 },
    // Ours, given when the refund first leaves for the provider and kept for every retry (idempotency).
    outRefundNo: { kind: 'text', label: { zh: '退款单号', en: 'Refund no.' }, readOnly: true, unique: true, max: 64, filter: 'equals', width: 200 },
    provider: { kind: 'enum', options: PAYMENT_PROVIDER_OPTIONS, label: { zh: '通道', en: 'Provider' }, readOnly: true, width: 100 },
    providerRefundNo: { kind: 'text', label: { zh: '通道退款单号', en: 'Provider refund no.' }, readOnly: true, max: 64, list: false },
    // The provider's own words on a failure (or on why the outcome is not known yet).
    providerMessage: { kind: 'text', label: { zh: '通道说明', en: 'Provider message' }, readOnly: true, max: 500, width: 200 },
    refundedAt: { kind: 'datetime', label: { zh: '退款时间', en: 'Refunded at' }, readOnly: true, width: 170 },
    // The refund-query job's schedule for a refund in flight: when to ask the provider next, and how often it has.
    nextQueryAt: { kind: 'datetime', label: { zh: '下次查询', en: 'Next query' }, readOnly: true, list: false, exported: false },
    queryAttempts: { kind: 'number', label: { zh: '查询次数', en: 'Queries' }, readOnly: true, list: false, exported: false },
    // The mall order line a refund gives back (a parent's line application, or RefundLine): approving
    // it moves that line's refunded amount too (apps/server/src/mall/refunds.ts).
    marketOrderLineId: { kind: 'number', label: { zh: '商城订单行', en: 'Mall order line' }, readOnly: true, list: false, exported: false },
  },
  workflow: {
    field: 'state',
    initial: REFUND_APPLIED,
    // The provider's answer (the operator's call, the query job, a notification) settles a refund in flight.
    systemTransitions: [
      { verb: 'Succeed', from: [REFUND_REFUNDING], to: REFUND_SUCCEEDED, label: { zh: '退款成功', en: 'Refunded' } },
      { verb: 'Fail', from: [REFUND_REFUNDING], to: REFUND_FAILED, label: { zh: '退款失败', en: 'Refund failed' } },
    ],
    editableIn: [REFUND_APPLIED],
    deletableIn: [REFUND_APPLIED],
    transitions: [
      {
        verb: 'Reject',
        from: [REFUND_APPLIED],
        to: REFUND_REJECTED,
        button: 'refund',
        label: { zh: '驳回', en: 'Reject' },
        danger: true,
        fields: { remark },
      },
      {
        verb: 'Refund',
        from: [REFUND_APPLIED],
        to: REFUND_REFUNDING,
        button: 'refund',
        label: { zh: '退款', en: 'Refund' },
        reauth: 'refundPassword',
        fields: {
          refundAmount: {
            kind: 'money',
            label: { zh: '退款金额', en: 'Refund amount' },
            min: 1,
            help: { zh: '留空则退还剩余全部金额', en: 'Leave empty to refund all that is left of the payment' },
          },
          remark,
        },
      },
      {
        verb: 'Retry',
        from: [REFUND_FAILED],
        to: REFUND_REFUNDING,
        button: 'refund',
        label: { zh: '重新退款', en: 'Retry' },
        reauth: 'refundPassword',
        confirm: { zh: '以原退款单号重新发起退款？', en: 'Send the refund again under the same refund number?' },
      },
      {
        verb: 'Close',
        from: [REFUND_APPLIED, REFUND_FAILED],
        to: REFUND_CLOSED,
        button: 'refund',
        label: { zh: '关闭', en: 'Close' },
        danger: true,
        fields: { remark },
        confirm: { zh: '关闭后不能再退款，确定？', en: 'A closed refund cannot be refunded any more. Close it?' },
      },
    ],
  },
  // The rules read a payment's refunds by state; the job reads refunds in flight by their next query.
  indexes: [['paymentId', 'state'], ['state', 'nextQueryAt']],
});
