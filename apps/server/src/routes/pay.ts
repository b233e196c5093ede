/**
 * POST /api/Pay/Notify/WechatPay — public: WeChat Pay calls it, with no session. The body is kept as
 * the exact text sent, because the signature covers those bytes; nothing of it is read before the
 * signature verifies. A refused notification answers 400 (the provider sends it again), a verified
 * one 200 whether it was applied now or before (idempotent).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sql } from 'drizzle-orm';
import { applyNotification } from '../finance/notifications.js';
import { CHANNEL_OF_PROVIDER } from '../finance/payment-notifications.js';
import { recordProviderCall } from '../finance/providers/recording.js';
import { NotificationRefused } from '../finance/providers/types.js';
import { envelopeSchema, ok } from '../platform/envelope.js';
import { badRequest, msg, notFound } from '../platform/errors.js';
import { publishLive } from '../platform/live-events.js';

export const WECHATPAY_NOTIFY_PATH = '/api/Pay/Notify/WechatPay';

export const payRoutes: FastifyPluginAsyncZod = async (app) => {
  // Encapsulated: only this plugin's routes read JSON as text.
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) => done(null, body));

  app.post(
    WECHATPAY_NOTIFY_PATH,
    {
      config: { public: true },
      schema: {
        tags: ['Pay'],
        summary: 'WeChat Pay v3 notifications (payments, refunds): signature verified, resource decrypted, applied once',
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      const provider = app.payments.byName('wechatpay');
      if (!provider) throw notFound(msg('payment.providerNotConfigured'));
      const rawBody = typeof request.body === 'string' ? request.body : '';
      let notification;
      try {
        notification = await provider.verifyNotification({ headers: request.headers, rawBody });
      } catch (error) {
        if (!(error instanceof NotificationRefused)) throw error;
        request.log.warn({ provider: provider.name, reason: error.message }, 'payment notification refused');
        await recordProviderCall(app.db, app.clock, request.log, {
          provider: provider.name,
          operation: 'notify',
          reference: '-',
          outcome: 'rejected',
          message: error.message,
        });
        throw badRequest([], msg('payment.notificationRefused'));
      }
      const result = await applyNotification(app.db, provider.name, notification, app.clock.now());
      await recordProviderCall(app.db, app.clock, request.log, {
        provider: provider.name,
        operation: 'notify',
        reference: notification.kind === 'refund' ? notification.outRefundNo : notification.outTradeNo,
        outcome: notification.outcome === 'failed' ? 'failed' : notification.outcome === 'pending' ? 'pending' : 'ok',
        message: result,
        request: notification.raw,
        response: { result },
      });
      if (result === 'applied' && notification.kind === 'payment' && notification.outcome === 'paid' && notification.providerTradeNo) {
        // The payment was recorded inside finance's own transaction, which committed above: its school's revenue moved.
        const recorded = (await app.db.execute(
          sql`select school_id from payment_records where channel = ${CHANNEL_OF_PROVIDER[provider.name]} and trade_no = ${notification.providerTradeNo}`,
        )) as unknown as { rows: { school_id: number | null }[] };
        for (const row of recorded.rows) publishLive(app.messenger, 'overview', row.school_id === null ? null : Number(row.school_id));
      }
      return ok(null);
    },
  );
};
