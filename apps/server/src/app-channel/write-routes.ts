/** The channel's writes, each under an `Idempotency-Key` (idempotency.ts). */
import { APP_PATHS, appApplyRefundSchema } from '@campus/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeSchema, ok } from '../platform/envelope.js';
import { idempotencyHeadersSchema, onceByKey } from './idempotency.js';
import { applyForRefund } from './refunds.js';

const tags = ['App'];
const config = { parentChannel: true } as const;

export const writeRoutes: FastifyPluginAsyncZod = async (app) => {
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
