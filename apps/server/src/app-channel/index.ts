/**
 * The parent app's channel, `/api/App/*` (docs/parent-app.md): sessions of its own kind, every read
 * limited to the parent's children and their schools, every write under an idempotency key. It calls
 * the same services the console's routes do (the engine, finance, the parents' service).
 */
import type { FastifyPluginAsync } from 'fastify';
import { albumRoutes } from './album-routes.js';
import { appUseRoutes } from './app-use-routes.js';
import { installParentGuard } from './guard.js';
import { mallRoutes } from './mall-routes.js';
import { questionnaireRoutes } from './questionnaire-routes.js';
import { readRoutes } from './read-routes.js';
import { signInRoutes } from './sign-in-routes.js';
import { writeRoutes } from './write-routes.js';

export const appChannelRoutes: FastifyPluginAsync = async (app) => {
  installParentGuard(app);
  await app.register(signInRoutes);
  await app.register(readRoutes);
  await app.register(questionnaireRoutes);
  await app.register(writeRoutes);
  await app.register(albumRoutes);
  await app.register(mallRoutes);
  await app.register(appUseRoutes);
};
