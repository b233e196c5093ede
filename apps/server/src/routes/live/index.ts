/** The live part of the console: the event stream, the Overview and the home page's widgets (docs/live.md). */
import type { FastifyInstance } from 'fastify';
import { homeWidgetRoutes } from './home-widgets.js';
import { overviewRoutes } from './overview-routes.js';
import { liveStreamRoutes } from './stream.js';

export async function liveRoutes(app: FastifyInstance): Promise<void> {
  await app.register(liveStreamRoutes);
  await app.register(overviewRoutes);
  await app.register(homeWidgetRoutes);
}
