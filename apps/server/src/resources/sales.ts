/**
 * Sales organisation rules: a team's members and their levels (the leader's data scope follows
 * them), and exclusive agent areas.
 */
import {
  AgentArea,
  API_PATHS,
  idSchema,
  SalesTeam,
  USER_TYPE_LABELS,
  salesTeamMemberSchema,
  salesTeamMembersSchema,
  type SalesTeamMember,
} from '@campus/contract';
import { and, asc, eq, inArray, ne, notInArray, or, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database, Executor } from '../db/client.js';
import { agentAreas } from '../db/schema/resources.js';
import { salesTeamMembers, salesTeams } from '../db/schema/sales.js';
import { users } from '../db/schema/users.js';
import { envelopeSchema, ok } from '../platform/envelope.js';
import { AppError, badRequest, notFound, msg, type FieldProblem } from '../platform/errors.js';
import { requireFrame } from '../platform/permissions.js';
import type { EngineContext } from './engine/context.js';
import { defineFamilyModule } from './engine/modules.js';
import { valueAfter } from './engine/lookup.js';
import { updateRecords } from './engine/services.js';

/** The members of teams, best level first. */
async function membersOf(db: Executor, teamIds: number[]): Promise<(SalesTeamMember & { teamId: number })[]> {
  if (teamIds.length === 0) return [];
  return db
    .select({
      teamId: salesTeamMembers.teamId,
      userId: users.id,
      loginName: users.loginName,
      name: users.name,
      sellerPosition: users.sellerPosition,
      level: salesTeamMembers.level,
    })
    .from(salesTeamMembers)
    .innerJoin(users, eq(users.id, salesTeamMembers.userId))
    .where(inArray(salesTeamMembers.teamId, teamIds))
    .orderBy(asc(salesTeamMembers.level), asc(users.id));
}

/**
 * Replaces a team's members. A seller belongs to one team at most (users.sales_team_id says which,
 * and a leader's scope reads both): members of another team are refused, leavers lose the team.
 */
async function replaceMembers(db: Executor, teamId: number, members: { userId: number; level: number }[]): Promise<void> {
  const userIds = [...new Set(members.map((member) => member.userId))];
  if (userIds.length !== members.length) throw badRequest([{ path: 'members', ...msg('sales.sellerTwice') }]);
  const errors: FieldProblem[] = [];
  if (userIds.length > 0) {
    const accounts = await db.select({ id: users.id, type: users.type, name: users.name }).from(users).where(inArray(users.id, userIds));
    for (const [position, member] of members.entries()) {
      const account = accounts.find((candidate) => candidate.id === member.userId);
      if (account?.type !== 'sales') errors.push({ path: `members.${position}.userId`, ...msg('account.mustBeType', { type: USER_TYPE_LABELS.sales }) });
    }
    const elsewhere = await db
      .select({ userId: salesTeamMembers.userId, teamName: salesTeams.name })
      .from(salesTeamMembers)
      .innerJoin(salesTeams, eq(salesTeams.id, salesTeamMembers.teamId))
      .where(and(inArray(salesTeamMembers.userId, userIds), ne(salesTeamMembers.teamId, teamId)));
    for (const other of elsewhere) {
      const position = members.findIndex((member) => member.userId === other.userId);
      errors.push({ path: `members.${position}.userId`, ...msg('sales.memberOfOtherTeam', { team: other.teamName }) });
    }
  }
  if (errors.length > 0) throw badRequest(errors);
  await db.delete(salesTeamMembers).where(eq(salesTeamMembers.teamId, teamId));
  if (members.length > 0) await db.insert(salesTeamMembers).values(members.map((member) => ({ teamId, ...member })));
  const leavers = userIds.length > 0 ? notInArray(users.id, userIds) : sql`true`;
  await db.update(users).set({ salesTeamId: null }).where(and(eq(users.salesTeamId, teamId), leavers));
  if (userIds.length > 0) await db.update(users).set({ salesTeamId: teamId }).where(inArray(users.id, userIds));
}

/** The leader is a member of its team, at level 1, with the leader position. */
async function enrolLeader(ctx: EngineContext, teamId: number): Promise<void> {
  const [team] = await ctx.db.select({ leaderId: salesTeams.leaderId }).from(salesTeams).where(eq(salesTeams.id, teamId));
  if (!team?.leaderId) return;
  const current = (await membersOf(ctx.db, [teamId])).filter((member) => member.userId !== team.leaderId);
  try {
    await replaceMembers(ctx.db, teamId, [{ userId: team.leaderId, level: 1 }, ...current.map(({ userId, level }) => ({ userId, level }))]);
  } catch (error) {
    // Reported on the form's field rather than on the members list the form does not show.
    throw badRequest([{ path: 'leaderId', ...msg('sales.leaderInOtherTeam') }], error instanceof AppError ? error.reason : undefined);
  }
  await ctx.db.update(users).set({ sellerPosition: 'leader' }).where(eq(users.id, team.leaderId));
}

/** Areas overlap when their province matches and neither names a different city or district. */
function overlapping(province: string, city: unknown, area: unknown) {
  const sameOrWhole = (column: typeof agentAreas.city, value: unknown) =>
    value === null || value === undefined || value === '' ? sql`true` : or(eq(column, String(value)), sql`${column} is null`, eq(column, ''));
  return and(eq(agentAreas.province, province), sameOrWhole(agentAreas.city, city), sameOrWhole(agentAreas.area, area));
}

export const agentAreaModule = defineFamilyModule(AgentArea, {
  async beforeWrite(ctx, { values, existing }) {
    // Province and agent are required: an Update that leaves them out keeps the stored ones.
    const province = valueAfter(values, existing, 'province') ?? '';
    const agentId = valueAfter(values, existing, 'agentId') ?? 0;
    const isExclusive = valueAfter(values, existing, 'isExclusive') === true;
    // Another agent in an overlapping area conflicts when either of the two is exclusive.
    const conflicts = await ctx.db
      .select({ id: agentAreas.id, isExclusive: agentAreas.isExclusive })
      .from(agentAreas)
      .where(
        and(
          overlapping(province, valueAfter(values, existing, 'city'), valueAfter(values, existing, 'area')),
          ne(agentAreas.agentId, agentId),
          existing ? ne(agentAreas.id, existing.id) : undefined,
        ),
      );
    if (conflicts.some((other) => other.isExclusive)) {
      throw badRequest([{ path: 'province', ...msg('sales.areaHeldExclusively') }]);
    }
    if (isExclusive && conflicts.length > 0) {
      throw badRequest([{ path: 'isExclusive', ...msg('sales.areaShared') }]);
    }
    return values;
  },
});

async function loadTeam(db: Database, id: number) {
  const [team] = await db.select({ id: salesTeams.id, name: salesTeams.name }).from(salesTeams).where(eq(salesTeams.id, id));
  if (!team) throw notFound(msg('error.recordNotFound', { family: SalesTeam.label, id }));
  return team;
}

/** The members of a sales team with their levels (the salesTeam page's "Members"). */
export const salesTeamMemberRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    API_PATHS.salesTeamMembers,
    {
      onRequest: requireFrame('salesTeam'),
      schema: {
        tags: ['SalesTeam'],
        summary: "A sales team's members and their levels",
        querystring: z.object({ id: idSchema }),
        response: { 200: envelopeSchema(z.array(salesTeamMemberSchema)) },
      },
    },
    async (request) => {
      await loadTeam(app.db, request.query.id);
      return ok((await membersOf(app.db, [request.query.id])).map(({ teamId: _teamId, ...member }) => member));
    },
  );

  app.post(
    API_PATHS.saveSalesTeamMembers,
    {
      onRequest: requireFrame('salesTeam', 'update'),
      schema: {
        tags: ['SalesTeam'],
        summary: "Replace a sales team's members and levels; the leader's scope follows at once",
        body: salesTeamMembersSchema,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      const { id, members } = request.body;
      await loadTeam(app.db, id);
      await app.db.transaction(async (tx) => {
        await replaceMembers(tx, id, members);
        await updateRecords(tx, SalesTeam, [id], { values: {}, now: new Date(), log: { userId: request.user.id, action: 'members', changes: { members } } });
      });
      return ok(null);
    },
  );
};

export const salesTeamModule = defineFamilyModule(SalesTeam, {
  routes: [salesTeamMemberRoutes],
  async afterWrite(ctx, change) {
    if (change.op !== 'toggle' && change.values.leaderId !== undefined && change.values.leaderId !== null) await enrolLeader(ctx, change.ids[0]!);
  },
});
