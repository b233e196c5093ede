/**
 * A provider's payment notification records the payment it reports, with its ledger split, in the
 * transaction that marks the notification processed (applied once: finance/notifications.ts). What
 * the order was for (school, parent, student, charge item) travels with the order as its `attach`
 * and comes back inside the signed, encrypted notification, so nothing unverified decides it. The
 * provider's trade number makes it idempotent a second time: recordPayment stores one payment per
 * channel and trade number, whichever notification (or query) reports it.
 */
import type { PaymentChannel, PaymentProviderName } from '@campus/contract';
import { z } from 'zod';
import { badRequest, msg } from '../platform/errors.js';
import type { NotificationHandler } from './notifications.js';
import { recordPayment } from './payments.js';

const id = z.number().int().positive();

/** What an order is for, as its `attach` carries it (WeChat Pay allows 128 characters: ids only). */
export const paymentAttachSchema = z.object({ schoolId: id, parentId: id.optional(), studentId: id.optional(), chargeItemId: id.optional() });
export type PaymentAttach = z.infer<typeof paymentAttachSchema>;

/** The `attach` of an order: sent with pay() and answered with the payment's notification. */
export function paymentAttachOf(attach: PaymentAttach): string {
  return JSON.stringify(paymentAttachSchema.parse(attach));
}

/** The order an `attach` names, or undefined when it is absent or not ours. */
export function parsePaymentAttach(text: unknown): PaymentAttach | undefined {
  if (typeof text !== 'string') return undefined;
  try {
    const parsed = paymentAttachSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The channel a provider's payments are recorded under. */
export const CHANNEL_OF_PROVIDER: Record<PaymentProviderName, PaymentChannel> = { wechatpay: 'wechat', demo: 'offline' };

/** Records the payment a paid-trade notification reports, with its ledger split. */
export const applyPaymentNotification: NotificationHandler<'payment'> = async (tx, notification, provider, now) => {
  // Only a paid trade is a payment; a closed or failed one is on record as a provider call alone.
  if (notification.outcome !== 'paid') return;
  const content = (notification.raw ?? {}) as { attach?: unknown; success_time?: unknown };
  const order = parsePaymentAttach(content.attach);
  if (!order || !notification.providerTradeNo || notification.amount === undefined || notification.amount <= 0) {
    throw badRequest([], msg('finance.notificationWithoutOrder'));
  }
  const successTime = typeof content.success_time === 'string' ? new Date(content.success_time) : undefined;
  await recordPayment(tx, {
    ...order,
    amount: notification.amount,
    channel: CHANNEL_OF_PROVIDER[provider as PaymentProviderName] ?? 'wechat',
    tradeNo: notification.providerTradeNo,
    outTradeNo: notification.outTradeNo,
    paidAt: successTime && !Number.isNaN(successTime.getTime()) ? successTime : now,
  });
};
