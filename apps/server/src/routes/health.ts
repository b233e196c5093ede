import { API_PATHS, healthSchema } from '@campus/contract';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { envelopeSchema, ok } from '../platform/envelope.js';

/** Liveness for load balancers: answers once the database answers. */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    API_PATHS.health,
    { config: { public: true }, schema: { tags: ['System'], summary: 'Health check', response: { 200: envelopeSchema(healthSchema) } } },
    async () => {
      await app.db.execute(sql`select 1`);
      return ok({ status: 'ok' as const, database: app.dbKind });
    },
  );
};
