import { ACCOUNT_OPTION_TYPES, API_PATHS } from '@campus/contract';
import { and, asc, eq, ilike } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { users } from '../db/schema/index.js';
import { envelopeSchema, ok } from '../platform/envelope.js';
import { containsPattern } from '../platform/like-patterns.js';
import { nameableAccountCondition } from '../platform/scope.js';

const accountOptionsQuerySchema = z.object({
  type: z.enum(ACCOUNT_OPTION_TYPES),
  keyword: z.string().trim().max(50).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

/** GET /api/User/Options: id and name of agents or sales people, for reference pickers. */
export const accountOptionsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    API_PATHS.accountOptions,
    { schema: { tags: ['User'], summary: 'Id and name of the agents, sales people or company staff matching a keyword, for reference pickers', querystring: accountOptionsQuerySchema, response: { 200: envelopeSchema(z.array(z.object({ value: z.number(), label: z.string() }))) } } },
    async (request) => {
      const { type, keyword, limit } = request.query;
      // The accounts a reference may name (platform/scope.ts): the picker offers exactly those.
      const nameable = nameableAccountCondition(request.user, users);
      const rows = await app.db
        .select({ value: users.id, label: users.name })
        .from(users)
        .where(and(eq(users.type, type), eq(users.enabled, true), nameable, keyword ? ilike(users.name, containsPattern(keyword)) : undefined))
        .orderBy(asc(users.name))
        .limit(limit);
      return ok(rows);
    },
  );
};
