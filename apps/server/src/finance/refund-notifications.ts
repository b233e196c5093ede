/** A provider's refund notification settles the refund it names, as the query job would (applied once: finance/notifications.ts). */
import { onProviderNotification } from './notifications.js';
import { settleRefundIn } from './refunds.js';

onProviderNotification('refund', async (tx, notification, _provider, now) => {
  await settleRefundIn(tx, { outRefundNo: notification.outRefundNo }, { outcome: notification.outcome, providerRefundNo: notification.providerRefundNo, message: notification.message }, now);
});
