/**
 * Provider notifications, applied once: the first delivery inserts the (provider, id) row, every
 * delivery then takes that row's lock, and only the one finding it unprocessed applies the handler of
 * its kind in the same transaction that marks it processed. A provider repeating a notification, or
 * two instances receiving it at once, change nothing a second time.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { paymentNotifications } from '../db/schema/payment-providers.js';
import type { ProviderNotification } from './providers/types.js';

export type NotificationHandler<K extends ProviderNotification['kind']> = (
  tx: Database,
  notification: Extract<ProviderNotification, { kind: K }>,
  provider: string,
  now: Date,
) => Promise<void>;

/** What each kind of notification does (refunds settle a refund; payments record the payment). */
export type NotificationHandlers = { [K in ProviderNotification['kind']]?: NotificationHandler<K> };

declare module '../resources/engine/modules.js' {
  interface FamilySeams {
    /** What each kind of provider notification does, given by the module of the family it changes. */
    notifications: NotificationHandlers;
  }
}

let handlers: NotificationHandlers = {};

/** Installs the handlers the family modules give at start (resources/families.ts), replacing any installed before. */
export function installNotificationHandlers(installed: NotificationHandlers): void {
  handlers = installed;
}

export type NotificationResult = 'applied' | 'duplicate';

const referenceOf = (notification: ProviderNotification) => (notification.kind === 'refund' ? notification.outRefundNo : notification.outTradeNo);

/** Applies a verified notification at most once (module doc). */
export async function applyNotification(db: Database, provider: string, notification: ProviderNotification, now: Date): Promise<NotificationResult> {
  await db
    .insert(paymentNotifications)
    .values({ provider, notificationId: notification.id, kind: notification.kind, reference: referenceOf(notification), receivedAt: now })
    .onConflictDoUpdate({
      target: [paymentNotifications.provider, paymentNotifications.notificationId],
      set: { deliveries: sql`${paymentNotifications.deliveries} + 1` },
    });
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(paymentNotifications)
      .where(and(eq(paymentNotifications.provider, provider), eq(paymentNotifications.notificationId, notification.id)))
      .for('update');
    if (!row || row.processedAt) return 'duplicate';
    const handler = handlers[notification.kind] as NotificationHandler<typeof notification.kind> | undefined;
    await handler?.(tx as Database, notification as never, provider, now);
    await tx.update(paymentNotifications).set({ processedAt: now }).where(eq(paymentNotifications.id, row.id));
    return 'applied';
  });
}
