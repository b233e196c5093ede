/** The channel's writes, each under an `Idempotency-Key` (idempotency.ts). */
import { APP_PATHS, appApplyRefundSchema, appBuyServiceSchema, appMarkNoticesReadSchema, appOrderSchema, appRegisterPushTokenSchema } from '@campus/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeSchema, ok } from '../platform/envelope.js';
import { idempotencyHeadersSchema, onceByKey } from './idempotency.js';
import { markNoticesRead, registerPushToken } from '../parents/index.js';
import { buyService } from './purchases.js';
import { applyForRefund } from './refunds.js';

const tags = ['App'];
const config = { parentChannel: true } as const;

export const writeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    APP_PATHS.buyService,
    {
      config,
      schema: {
        tags,
        summary: "Buy a child's safe-campus service: an order paid through the finance provider",
        description:
          "The demo provider settles at once (outcome paid: the payment is recorded and the service extended); WeChat Pay answers outcome pending with payParams for the app's SDK (scene app) or payUrl (scene native), and its notification records the payment. Another family's child is 404; an item the school does not sell is 400 on chargeItemId.",
        headers: idempotencyHeadersSchema,
        body: appBuyServiceSchema,
        response: { 200: envelopeSchema(appOrderSchema) },
      },
    },
    async (request) => ok(await onceByKey(request, () => buyService(app, request.parent, request.body))),
  );

  app.post(
    APP_PATHS.markNoticesRead,
    {
      config,
      schema: {
        tags,
        summary: "Mark the parent's notices read: listed ids (others' are ignored) or all",
        headers: idempotencyHeadersSchema,
        body: appMarkNoticesReadSchema,
        response: { 200: envelopeSchema(z.object({ marked: z.number() })) },
      },
    },
    async (request) => ok(await onceByKey(request, async () => ({ marked: await markNoticesRead(app.db, request.parent.id, request.body.ids, app.clock.now()) }))),
  );

  app.post(
    APP_PATHS.registerPushToken,
    {
      config,
      schema: {
        tags,
        summary: "Register the device's push token for the parent (one per device; a token moving to another parent leaves the old one)",
        headers: idempotencyHeadersSchema,
        body: appRegisterPushTokenSchema,
        response: { 200: envelopeSchema(z.object({ id: z.number() })) },
      },
    },
    async (request) => ok(await onceByKey(request, () => registerPushToken(app.db, request.parent.id, request.body, app.clock.now()))),
  );

  app.post(
    APP_PATHS.applyRefund,
    {
      config,
      schema: {
        tags,
        summary: "Apply for a refund of one of the parent's payments; it appears in refundManage for an operator",
        description: "Another family's payment answers 404; a payment with nothing left to refund 400 on paymentId.",
        headers: idempotencyHeadersSchema,
        body: appApplyRefundSchema,
        response: { 200: envelopeSchema(z.object({ id: z.number(), state: z.number() })) },
      },
    },
    async (request) => ok(await onceByKey(request, () => applyForRefund(app.db, app, request.parent, request.body))),
  );
};
