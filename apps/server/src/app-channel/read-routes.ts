/** The channel's reads (reads.ts): children, recognitions, the inbox, notices for parents, help, services, payments, refunds. */
import {
  APP_PATHS,
  appChildSchema,
  appChildServiceSchema,
  appInboxQuerySchema,
  appInboxSchema,
  appHelpSchema,
  appPageQuerySchema,
  appPaymentsSchema,
  appRecognitionsQuerySchema,
  appRecognitionsSchema,
  appRefundsSchema,
  appSchoolNoticeSchema,
  formatBusinessDate,
} from '@campus/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeSchema, ok } from '../platform/envelope.js';
import { childOf } from './guard.js';
import { inboxOf } from '../parents/index.js';
import { servicesOf } from './purchases.js';
import { childrenOf, helpArticles, paymentsOf, recognitionsOf, refundsOf, schoolNoticesFor } from './reads.js';

const tags = ['App'];
const config = { parentChannel: true } as const;

export const readRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    APP_PATHS.children,
    { config, schema: { tags, summary: "The parent's children: school, class and photo (a signed address)", response: { 200: envelopeSchema(z.array(appChildSchema)) } } },
    async (request) => ok(await childrenOf(app.db, request.parent, await app.mediaUrls())),
  );

  app.get(
    APP_PATHS.recognitions,
    {
      config,
      schema: {
        tags,
        summary: "A child's arrivals and departures on a China-time day (today by default), with snapshots as signed addresses",
        description: 'Another family\'s child answers 404.',
        querystring: appRecognitionsQuerySchema,
        response: { 200: envelopeSchema(appRecognitionsSchema) },
      },
    },
    async (request) => {
      const child = childOf(request, request.query.studentId);
      return ok(await recognitionsOf(app.db, child, request.query.date ?? formatBusinessDate(app.clock.now()), await app.mediaUrls()));
    },
  );

  app.get(
    APP_PATHS.inbox,
    {
      config,
      schema: { tags, summary: "The parent's notices (arrivals, departures), newest first, with the unread count", querystring: appInboxQuerySchema, response: { 200: envelopeSchema(appInboxSchema) } },
    },
    async (request) => {
      const inbox = await inboxOf(app.db, request.parent.id, request.query);
      const signer = await app.mediaUrls();
      return ok({ ...inbox, rows: inbox.rows.map(({ snapshotId, ...notice }) => ({ ...notice, snapshot: snapshotId ? signer.sign(snapshotId) : null })) });
    },
  );

  app.get(
    APP_PATHS.services,
    {
      config,
      schema: {
        tags,
        summary: 'For each child: the service the parent holds (until when, trial days left, receiving) and the charge items it can buy',
        response: { 200: envelopeSchema(z.array(appChildServiceSchema)) },
      },
    },
    async (request) => ok(await servicesOf(app.db, request.parent, app.clock.now())),
  );

  app.get(
    APP_PATHS.schoolNotices,
    { config, schema: { tags, summary: 'Notices for parents (audience everyone or parents) in their period today', response: { 200: envelopeSchema(z.array(appSchoolNoticeSchema)) } } },
    async () => ok(await schoolNoticesFor(app.db, app.clock.now())),
  );

  app.get(
    APP_PATHS.help,
    { config, schema: { tags, summary: 'The published help articles (userHelp)', response: { 200: envelopeSchema(z.array(appHelpSchema)) } } },
    async () => ok(await helpArticles(app.db)),
  );

  app.get(
    APP_PATHS.payments,
    { config, schema: { tags, summary: "The parent's payments, newest first", querystring: appPageQuerySchema, response: { 200: envelopeSchema(appPaymentsSchema) } } },
    async (request) => ok(await paymentsOf(app.db, request.parent, request.query)),
  );

  app.get(
    APP_PATHS.refunds,
    { config, schema: { tags, summary: "The refund applications of the parent's payments, newest first", querystring: appPageQuerySchema, response: { 200: envelopeSchema(appRefundsSchema) } } },
    async (request) => ok(await refundsOf(app.db, request.parent, request.query)),
  );
};
