/**
 * What the platform asks of a payment provider. Money is integer fen; the merchant's own numbers
 * (`outTradeNo` of a payment, `outRefundNo` of a refund) make every call idempotent at the provider:
 * a refund asked again with the same number is the same refund, never a second one.
 */
import type { PaymentProviderName, WechatAppPayParams } from '@campus/contract';

export interface PayRequest {
  outTradeNo: string;
  amount: number;
  description: string;
  /** What the order is for, returned verbatim with the payment's notification (finance/payment-notifications.ts `paymentAttachOf`). */
  attach?: string;
  /** Where the payer pays: a code to scan (`native`, the default) or the parent app's WeChat SDK (`app`). */
  scene?: 'native' | 'app';
}

export interface PayAnswer {
  /** `paid`: settled already (the demo provider); `pending`: the payer still has to pay (a QR code). */
  outcome: 'paid' | 'pending' | 'failed' | 'unknown';
  providerTradeNo?: string;
  /** What the payer opens or scans (WeChat's code_url). */
  payUrl?: string;
  /** The signed parameters the app's WeChat SDK opens the payment with (scene `app`). */
  appPayParams?: WechatAppPayParams;
  message?: string;
}

export interface PaymentQueryAnswer {
  outcome: 'paid' | 'pending' | 'closed' | 'failed' | 'unknown';
  providerTradeNo?: string;
  amount?: number;
  message?: string;
}

export interface RefundRequest {
  outTradeNo: string;
  outRefundNo: string;
  /** What this refund returns. */
  refundAmount: number;
  /** What the payment was (WeChat checks the two together). */
  totalAmount: number;
  reason?: string;
}

/**
 * How a refund stands at the provider. `succeeded` and `failed` are final; `pending` (accepted,
 * processing) and `unknown` (no usable answer: timeout, network, 5xx) leave the refund in flight
 * until a query settles it.
 */
export interface RefundAnswer {
  outcome: 'succeeded' | 'failed' | 'pending' | 'unknown';
  providerRefundNo?: string;
  /** The provider's own words on a failure, shown to the operator. */
  message?: string;
}

/** A notification whose signature verified and whose content was decrypted. */
export type ProviderNotification =
  | { id: string; kind: 'payment'; outTradeNo: string; outcome: PaymentQueryAnswer['outcome']; providerTradeNo?: string; amount?: number; raw: unknown }
  | { id: string; kind: 'refund'; outTradeNo?: string; outRefundNo: string; outcome: RefundAnswer['outcome']; providerRefundNo?: string; message?: string; raw: unknown };

/** An incoming notification as the endpoint received it: headers and the body exactly as sent. */
export interface IncomingNotification {
  headers: Readonly<Record<string, string | string[] | undefined>>;
  rawBody: string;
}

/** Thrown by verifyNotification when the signature, timestamp or ciphertext does not check out. */
export class NotificationRefused extends Error {
  override name = 'NotificationRefused';
}

export interface PaymentProvider {
  readonly name: PaymentProviderName;
  pay(request: PayRequest): Promise<PayAnswer>;
  query(outTradeNo: string): Promise<PaymentQueryAnswer>;
  refund(request: RefundRequest): Promise<RefundAnswer>;
  queryRefund(outRefundNo: string): Promise<RefundAnswer>;
  /** Verifies the signature before reading anything, then decrypts and parses; throws NotificationRefused. */
  verifyNotification(incoming: IncomingNotification): Promise<ProviderNotification>;
}
