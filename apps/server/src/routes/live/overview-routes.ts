/** GET /api/Overview/GetSummary: the seed's Overview for systemView, the home page and the large screen. */
import { LIVE_PATHS, frameOf, overviewSchema } from '@campus/contract';
import type { FastifyInstance } from 'fastify';
import { getRequestState } from '../../platform/caller-state.js';
import { forbidden } from '../../platform/errors.js';
import { ok } from '../../platform/envelope.js';
import { documentedCall } from '../../platform/route-docs.js';
import { readOverview } from '../../reports/overview.js';

/** The pages that show the Overview: the home page (always held), systemView and the large screen. */
const OVERVIEW_FRAME_IDS = ['index', 'systemView', 'displayLargeScreen'].map((index) => frameOf(index).fixedId);

export async function overviewRoutes(app: FastifyInstance): Promise<void> {
  app.get(
    LIVE_PATHS.overview,
    { schema: documentedCall('Overview', 'GetSummary', "Today's schools, students, parents, devices online/offline, recognitions and revenue of the caller's scope, against yesterday and last week", overviewSchema) },
    async (request) => {
      const { grant, scope } = await getRequestState(request);
      if (!OVERVIEW_FRAME_IDS.some((id) => grant.has(id))) throw forbidden();
      return ok(await readOverview(app.db, scope, app.clock.now()));
    },
  );
}
