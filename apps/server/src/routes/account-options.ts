import { ACCOUNT_OPTION_TYPES, API_PATHS } from '@campus/contract';
import { and, asc, eq, ilike, or, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { users } from '../db/schema/index.js';
import type { AuthUser } from '../platform/auth.js';
import { envelopeSchema, ok } from '../platform/envelope.js';
import { containsPattern } from '../platform/like-patterns.js';

const accountOptionsQuerySchema = z.object({
  type: z.enum(ACCOUNT_OPTION_TYPES),
  keyword: z.string().trim().max(50).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

/**
 * Which accounts of a type a caller may name in a picker (a school's agent or seller): company staff
 * any; an agent itself; a child account its agent; a sales person itself and, as a leader, its team.
 */
function nameableAccounts(user: AuthUser, type: (typeof ACCOUNT_OPTION_TYPES)[number]): SQL | undefined | false {
  if (user.type === 'company') return undefined;
  if (type === 'agent' && user.type === 'agent') return eq(users.id, user.id);
  if (type === 'agent' && user.type === 'child' && user.parentId) return eq(users.id, user.parentId);
  if (type === 'sales' && user.type === 'sales') {
    const team = user.sellerPosition === 'leader' && user.salesTeamId ? user.salesTeamId : undefined;
    return team ? or(eq(users.id, user.id), eq(users.salesTeamId, team)) : eq(users.id, user.id);
  }
  return false;
}

/** GET /api/User/Options: id and name of agents or sales people, for reference pickers. */
export const accountOptionsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    API_PATHS.accountOptions,
    { schema: { tags: ['User'], querystring: accountOptionsQuerySchema, response: { 200: envelopeSchema(z.array(z.object({ value: z.number(), label: z.string() }))) } } },
    async (request) => {
      const { type, keyword, limit } = request.query;
      const nameable = nameableAccounts(request.user, type);
      if (nameable === false) return ok([]);
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
