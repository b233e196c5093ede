/**
 * Sales organisation rules: a team's members and their levels (the leader's data scope follows
 * them), and exclusive agent areas.
 */
import { AgentArea, SalesTeam } from '@campus/contract';
import { and, eq, inArray, ne, notInArray, or, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { agentAreas } from '../db/schema/resources.js';
import { salesTeamMembers, salesTeams } from '../db/schema/sales.js';
import { users } from '../db/schema/users.js';
import { AppError, badRequest, msg } from '../platform/errors.js';
import type { EngineContext } from './engine/context.js';
import { readLinkEntries, replaceLinkEntries } from './engine/link-attributes.js';
import { defineFamilyModule } from './engine/modules.js';
import { valueAfter } from './engine/lookup.js';

/** A seller's team (users.sales_team_id, which a leader's scope reads) follows the team's links: leavers lose it. */
async function followMembers(db: Executor, teamId: number): Promise<void> {
  const members = db.select({ userId: salesTeamMembers.userId }).from(salesTeamMembers).where(eq(salesTeamMembers.teamId, teamId));
  await db.update(users).set({ salesTeamId: null }).where(and(eq(users.salesTeamId, teamId), notInArray(users.id, members)));
  await db.update(users).set({ salesTeamId: teamId }).where(inArray(users.id, members));
}

/** The leader is a member of its team, at level 1, with the leader position. */
async function enrolLeader(ctx: EngineContext, teamId: number): Promise<void> {
  const [team] = await ctx.db.select({ leaderId: salesTeams.leaderId }).from(salesTeams).where(eq(salesTeams.id, teamId));
  if (!team?.leaderId) return;
  const others = (await readLinkEntries(ctx, ctx.db, 'memberIds', teamId)).filter((member) => member.userId !== team.leaderId);
  try {
    await replaceLinkEntries(ctx, ctx.db, 'memberIds', teamId, [{ userId: team.leaderId, level: 1 }, ...others]);
  } catch (error) {
    // Reported on the form's field rather than on the members list the form does not show.
    throw badRequest([{ path: 'leaderId', ...msg('sales.leaderInOtherTeam') }], error instanceof AppError ? error.reason : undefined);
  }
  await followMembers(ctx.db, teamId);
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

export const salesTeamModule = defineFamilyModule(SalesTeam, {
  async afterWrite(ctx, change) {
    if (change.op === 'toggle') return;
    // SaveMembers (the engine's call of the link with levels) names the new members.
    if (change.values.memberIds !== undefined) await followMembers(ctx.db, change.ids[0]!);
    if (change.values.leaderId !== undefined && change.values.leaderId !== null) await enrolLeader(ctx, change.ids[0]!);
  },
});
