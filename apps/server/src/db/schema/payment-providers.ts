import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, timestamptz } from './columns.js';

/**
 * The demo provider's own books: the refunds it has made, one row per out_refund_no. A refund asked
 * again under the same number finds its row and is answered as made, never made twice; the sum per
 * payment refuses refunds beyond what was paid, as a real provider would.
 */
export const demoProviderRefunds = pgTable(
  'demo_provider_refunds',
  {
    outRefundNo: text('out_refund_no').primaryKey(),
    outTradeNo: text('out_trade_no').notNull(),
    amount: integer('amount').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (table) => [index('demo_provider_refunds_out_trade_no_idx').on(table.outTradeNo)],
);

/**
 * Notifications received from providers, one row per (provider, notification id): a provider sends
 * the same notification again until it is answered, and concurrent deliveries meet on this row's
 * lock, so each is applied once. `processedAt` stays null while it has not been applied yet.
 */
export const paymentNotifications = pgTable(
  'payment_notifications',
  {
    id: id(),
    provider: text('provider').notNull(),
    notificationId: text('notification_id').notNull(),
    kind: text('kind').$type<'payment' | 'refund'>().notNull(),
    reference: text('reference').notNull(),
    receivedAt: timestamptz('received_at').notNull(),
    processedAt: timestamptz('processed_at'),
    deliveries: integer('deliveries').notNull().default(1),
  },
  (table) => [
    uniqueIndex('payment_notifications_provider_id_unique').on(table.provider, table.notificationId),
    index('payment_notifications_unprocessed_idx').on(table.receivedAt).where(sql`${table.processedAt} is null`),
  ],
);
