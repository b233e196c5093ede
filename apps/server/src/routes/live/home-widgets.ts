/**
 * /api/HomeWidget/*: which widgets the caller's home page shows, in which order (homeCustomization).
 * Read by every caller (the home page is always held); saved with homeCustomization's update button.
 */
import { LIVE_PATHS, completeHomeWidgets, frameOf, homeWidgetsSchema, saveHomeWidgetsBodySchema } from '@campus/contract';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client.js';
import { userHomeWidgets } from '../../db/schema/index.js';
import { getRequestState } from '../../platform/caller-state.js';
import { ok } from '../../platform/envelope.js';
import { forbidden } from '../../platform/errors.js';
import { documentedCall } from '../../platform/route-docs.js';

const CUSTOMIZATION_FRAME_ID = frameOf('homeCustomization').fixedId;

async function widgetsOf(db: Database, userId: number) {
  const [row] = await db.select({ widgets: userHomeWidgets.widgets }).from(userHomeWidgets).where(eq(userHomeWidgets.userId, userId));
  return completeHomeWidgets(row?.widgets);
}

export async function homeWidgetRoutes(parent: FastifyInstance): Promise<void> {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  app.get(LIVE_PATHS.homeWidgets, { schema: documentedCall('HomeWidget', 'Get', "The caller's home-page widgets in order, each shown or hidden", homeWidgetsSchema) }, async (request) =>
    ok(await widgetsOf(app.db, request.user.id)),
  );

  app.post(
    LIVE_PATHS.saveHomeWidgets,
    {
      // The button before the body: a caller without it is 403 whatever it sent.
      onRequest: async (request) => {
        const { grant } = await getRequestState(request);
        if (!grant.get(CUSTOMIZATION_FRAME_ID)?.has('update')) throw forbidden();
      },
      schema: { ...documentedCall('HomeWidget', 'Save', "Replace the caller's home-page widgets (order and visibility)", homeWidgetsSchema), body: saveHomeWidgetsBodySchema },
    },
    async (request) => {
      const widgets = completeHomeWidgets(request.body.widgets);
      await app.db
        .insert(userHomeWidgets)
        .values({ userId: request.user.id, widgets })
        .onConflictDoUpdate({ target: userHomeWidgets.userId, set: { widgets, updatedAt: sql`now()` } });
      return ok(widgets);
    },
  );
}
