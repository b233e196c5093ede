/** Registers the routes of every declared family; importing the family modules registers their hooks. */
import { RESOURCES } from '@campus/contract';
import type { FastifyInstance } from 'fastify';
import { appVersionRoutes } from './app-version.js';
import './accounts.js';
import './device.js';
import { feverThresholdRoutes } from './fever-alert.js';
import './maintenance.js';
import './operation-log.js';
import './nvr.js';
import './feedback.js';
import './app-screens.js';
import './partners.js';
import './music.js';
import './questionnaire.js';
import { questionnaireRoutes } from './questionnaire-routes.js';
import './developer.js';
import { nationalCalendarRoutes } from './holiday.js';
import './order.js';
import './finance.js';
import './refund.js';
import './school.js';
import './terminal.js';
import './terminal-command.js';
import './terminal-config.js';
import '../terminals/commands.js';
import './terminal-upgrades.js';
import '../terminals/upgrades.js';
import { salesTeamMemberRoutes } from './sales.js';
import { registerResourceRoutes } from './engine/routes.js';
import { homeNoticeRoutes } from './home-notices.js';
import { terminalSettingsRoutes } from '../terminals/settings.js';
import { importRoutes } from './engine/import/routes.js';

export async function resourceRoutes(app: FastifyInstance): Promise<void> {
  for (const def of Object.values(RESOURCES)) registerResourceRoutes(app, def);
  await app.register(importRoutes);
  await app.register(salesTeamMemberRoutes);
  await app.register(nationalCalendarRoutes);
  await app.register(appVersionRoutes);
  await app.register(feverThresholdRoutes);
  await app.register(terminalSettingsRoutes);
  await app.register(homeNoticeRoutes);
  await app.register(questionnaireRoutes);
}
