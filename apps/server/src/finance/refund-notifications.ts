/** A provider's refund notification settles the refund it names, as the query job would (applied once: finance/notifications.ts). */
import type { NotificationHandler } from './notifications.js';
import { settleRefundIn } from './refunds.js';

/** Settles the refund a refund notification names. */
export const applyRefundNotification: NotificationHandler<'refund'> = async (tx, notification, _provider, now) => {
  await settleRefundIn(tx, { outRefundNo: notification.outRefundNo }, { outcome: notification.outcome, providerRefundNo: notification.providerRefundNo, message: notification.message }, now);
};
