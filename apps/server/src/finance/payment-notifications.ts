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
import type { Database, Executor } from '../db/client.js';
import { AppError, badRequest, msg } from '../platform/errors.js';
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

type PaymentNotification = Parameters<NotificationHandler<'payment'>>[1];

/** The `attach` a notification carries back (its order), or undefined. */
const attachOf = (notification: PaymentNotification): unknown => (notification.raw as { attach?: unknown } | undefined)?.attach;

/** The channel a provider's payments go under, and when the trade was paid: its `success_time`, else now. */
function paidTradeOf(notification: PaymentNotification, provider: string, now: Date): { channel: PaymentChannel; paidAt: Date } {
  const successTime = (notification.raw as { success_time?: unknown } | undefined)?.success_time;
  const reported = typeof successTime === 'string' ? new Date(successTime) : undefined;
  return { channel: CHANNEL_OF_PROVIDER[provider as PaymentProviderName] ?? 'wechat', paidAt: reported && !Number.isNaN(reported.getTime()) ? reported : now };
}

/** Records the payment a paid-trade notification reports, with its ledger split. */
export const applyPaymentNotification: NotificationHandler<'payment'> = async (tx, notification, provider, now) => {
  // Only a paid trade is a payment; a closed or failed one is on record as a provider call alone.
  if (notification.outcome !== 'paid') return;
  const order = parsePaymentAttach(attachOf(notification));
  if (!order || !notification.providerTradeNo || notification.amount === undefined || notification.amount <= 0) {
    throw badRequest([], msg('finance.notificationWithoutOrder'));
  }
  await recordPayment(tx, { ...order, ...paidTradeOf(notification, provider, now), amount: notification.amount, tradeNo: notification.providerTradeNo, outTradeNo: notification.outTradeNo });
};

/** An order paid through a provider's notification (a mall or album order): how its `attach` names it, how it is paid, and whose it is. */
export interface NotifiedOrders {
  orderOfAttach: (attach: unknown) => number | undefined;
  /** Pays the order in its own transaction; a 409 when it is no longer payable. */
  settle: (tx: Executor, orderId: number, payment: { channel: PaymentChannel; tradeNo: string; paidAt: Date }) => Promise<unknown>;
  payerOf: (tx: Database, orderId: number) => Promise<{ schoolId: number; parentId: number | null } | undefined>;
}

/**
 * The payment notifications of `orders`: an attach naming one pays it; any other goes on to `next`. A
 * payment for an order no longer payable (closed or cancelled meanwhile) is still money received: it
 * is recorded for the order's school and parent, so refundManage can give it back, and the order stays.
 */
export function withOrderPayments(orders: NotifiedOrders, next: NotificationHandler<'payment'>): NotificationHandler<'payment'> {
  return async (tx, notification, provider, now) => {
    const orderId = orders.orderOfAttach(attachOf(notification));
    if (orderId === undefined) return next(tx, notification, provider, now);
    if (notification.outcome !== 'paid' || !notification.providerTradeNo) return;
    const paid = paidTradeOf(notification, provider, now);
    try {
      await tx.transaction((inner) => orders.settle(inner, orderId, { ...paid, tradeNo: notification.providerTradeNo! }).then(() => undefined));
    } catch (error) {
      if (!(error instanceof AppError) || error.httpStatus !== 409) throw error;
      const payer = await orders.payerOf(tx, orderId);
      if (!payer || notification.amount === undefined || notification.amount <= 0) throw error;
      await recordPayment(tx, { ...payer, ...paid, amount: notification.amount, tradeNo: notification.providerTradeNo, outTradeNo: notification.outTradeNo });
    }
  };
}
