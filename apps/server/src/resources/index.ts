/** Registers the routes of every declared family, and those of the family modules: their settings' and their own. */
import { RESOURCES } from '@campus/contract';
import type { FastifyInstance } from 'fastify';
import { registerResourceRoutes } from './engine/routes.js';
import { importRoutes } from './engine/import/routes.js';
import { FAMILY_MODULES } from './families.js';
import { settingRoutes } from './engine/settings.js';

export async function resourceRoutes(app: FastifyInstance): Promise<void> {
  for (const def of Object.values(RESOURCES)) registerResourceRoutes(app, def);
  await app.register(importRoutes);
  for (const module of FAMILY_MODULES) {
    for (const setting of module.settings ?? []) await app.register(settingRoutes(setting));
    for (const routes of module.routes ?? []) await app.register(routes);
  }
}
