/** Registers the calls of every declared report; importing the source modules registers their sources. */
import { REPORTS } from '@campus/contract';
import type { FastifyInstance } from 'fastify';
import './device-statistics.js';
import './mis-identify-person.js';
import './transaction-statistics.js';
import { registerReportRoutes } from './routes.js';

export async function reportRoutes(app: FastifyInstance): Promise<void> {
  for (const def of Object.values(REPORTS)) registerReportRoutes(app, def);
}
