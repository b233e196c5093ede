/** The app's reports about itself: sessions and function use, in batches (parents/app-use.ts). */
import { APP_PATHS, APP_USE_CALLS_PER_MINUTE, APP_USE_MAX_AGE_DAYS, APP_USE_MAX_BATCH, appReportUseAnswerSchema, appReportUseSchema } from '@campus/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { envelopeSchema, ok } from '../platform/envelope.js';
import { countAppUseCall, recordAppUse } from '../parents/app-use.js';
import { idempotencyHeadersSchema, onceByKey } from './idempotency.js';

export const appUseRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    APP_PATHS.reportUse,
    {
      config: { parentChannel: true },
      schema: {
        tags: ['App'],
        summary: 'Report app use: sessions opened (OS, OS version, app type and version, device model) and functions used',
        description: `A batch of 1–${APP_USE_MAX_BATCH} events, each dated by the app (events kept offline up to ${APP_USE_MAX_AGE_DAYS} days old; older or future ones answer 400 on events.N.at). At most ${APP_USE_CALLS_PER_MINUTE} calls per parent session and minute (429 beyond, replays included). Idempotent by key like every write: a retried batch is stored once. The statistics count an event under the parent's school, within a minute or two.`,
        headers: idempotencyHeadersSchema,
        body: appReportUseSchema,
        response: { 200: envelopeSchema(appReportUseAnswerSchema) },
      },
    },
    async (request) => {
      await countAppUseCall(app.db, request.parent.sessionId, app.clock.now());
      return ok(await onceByKey(request, () => recordAppUse(app.db, { parentId: request.parent.id, sessionId: request.parent.sessionId }, request.body, app.clock.now())));
    },
  );
};
