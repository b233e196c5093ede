import { API_PATHS, ErrorCode, formatServerMessage, healthSchema } from '@campus/contract';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { areMigrationsApplied } from '../db/migrate.js';
import { envelopeSchema, ok } from '../platform/envelope.js';
import { localeOf } from '../platform/locale.js';

/** Liveness: the process answers. Outside /api, so load shedding never refuses it. */
export const LIVENESS_PATH = '/healthz';
/** Readiness: the database answers and every migration is applied; a balancer sends traffic only then. */
export const READINESS_PATH = '/readyz';

const livenessSchema = z.object({ status: z.literal('alive') });
const readinessSchema = z.object({
  status: z.enum(['ready', 'not ready']),
  database: z.enum(['reachable', 'unreachable']),
  migrations: z.enum(['applied', 'pending', 'unknown']),
});
type Readiness = z.infer<typeof readinessSchema>;
const notReadySchema = z.object({ code: z.literal(ErrorCode.ServiceUnavailable), message: z.string(), data: readinessSchema });

const system = { tags: ['System'] };

/**
 * Health for load balancers and orchestrators: `/healthz` (liveness: restart the instance when it
 * fails) never touches the database, so a database outage does not restart every instance;
 * `/readyz` (readiness: route traffic to it) answers 503 until the database answers and is migrated.
 * `/api/health` is the older combined check the console's own tools use.
 */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    API_PATHS.health,
    { config: { public: true }, schema: { ...system, summary: 'Health check', response: { 200: envelopeSchema(healthSchema) } } },
    async () => {
      await app.db.execute(sql`select 1`);
      return ok({ status: 'ok' as const, database: app.dbKind });
    },
  );

  app.get(
    LIVENESS_PATH,
    { config: { public: true }, schema: { ...system, summary: 'Liveness: the process answers', response: { 200: envelopeSchema(livenessSchema) } } },
    async () => ok({ status: 'alive' as const }),
  );

  app.get(
    READINESS_PATH,
    {
      config: { public: true },
      schema: { ...system, summary: 'Readiness: database reachable and migrated (503 otherwise)', response: { 200: envelopeSchema(readinessSchema), 503: notReadySchema } },
    },
    async (request, reply) => {
      let readiness: Readiness;
      try {
        const migrated = await areMigrationsApplied(app.db);
        readiness = { status: migrated ? 'ready' : 'not ready', database: 'reachable', migrations: migrated ? 'applied' : 'pending' };
      } catch (error) {
        request.log.warn({ err: error }, 'readiness: the database does not answer');
        readiness = { status: 'not ready', database: 'unreachable', migrations: 'unknown' };
      }
      if (readiness.status === 'ready') return ok(readiness);
      return reply
        .status(503)
        .header('Retry-After', '5')
        .send({ code: ErrorCode.ServiceUnavailable, message: formatServerMessage('error.notReady', undefined, localeOf(request)), data: readiness });
    },
  );
};
