import { builtOnce, type UserType } from '@campus/contract';
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { salesTeamMembers, salesTeams, schools, userSchools, users } from '../db/schema/index.js';
import type { AuthUser } from './auth.js';
import { boundTerm, fixedTerm, intArrayText, termSql, type Term } from './sql-terms.js';

/** Which schools a caller may touch: all of them, or exactly these ids (possibly none). */
export type SchoolScope = { kind: 'all' } | { kind: 'schools'; schoolIds: number[] };

type ScopeSubject = Pick<AuthUser, 'id' | 'type' | 'parentId'>;
type NamingSubject = ScopeSubject & Pick<AuthUser, 'salesTeamId' | 'sellerPosition'>;

/**
 * A seller's schools: the ones it sells; for a team leader also every school of the teams it
 * leads and every school sold by a member of those teams. A team is led by `sales_teams.leader_id`;
 * its members are the sales_team_members rows and the users whose sales_team_id is the team.
 */
function salesCondition(userId: number): SQL {
  const ledTeams = sql`select ${salesTeams.id} from ${salesTeams} where ${salesTeams.leaderId} = ${userId}`;
  return sql`${schools.sellerId} = ${userId}
    or ${schools.salesTeamId} in (${ledTeams})
    or ${schools.sellerId} in (select ${salesTeamMembers.userId} from ${salesTeamMembers} where ${salesTeamMembers.teamId} in (${ledTeams}))
    or ${schools.sellerId} in (select ${users.id} from ${users} where ${users.salesTeamId} in (${ledTeams}))`;
}

/**
 * The SQL listing the ids of the caller's schools (PRODUCT section 1), or null when it reaches all of
 * them: company → all; sales → its own schools, and a team leader's team; agent → schools whose agent
 * it is; child → exactly its parent agent's; external → the schools bound to it.
 */
export function scopeSchoolIdsSql(user: ScopeSubject): SQL | null {
  switch (user.type) {
    case 'company':
      return null;
    case 'sales':
      return sql`select ${schools.id} from ${schools} where ${salesCondition(user.id)}`;
    case 'agent':
      return sql`select ${schools.id} from ${schools} where ${schools.agentId} = ${user.id}`;
    case 'child':
      return sql`select ${schools.id} from ${schools} where ${schools.agentId} = ${user.parentId ?? 0}`;
    case 'external':
      return sql`select ${userSchools.schoolId} from ${userSchools} where ${userSchools.userId} = ${user.id}`;
  }
}

/**
 * The agent whose schools are exactly the caller's scope, by the rule above (an agent itself, a child
 * account its parent agent), or null for every other caller: a report may then read a rollup kept
 * per agent instead of one per school.
 */
export function scopeAgentOf(user: ScopeSubject): number | null {
  if (user.type === 'agent') return user.id;
  if (user.type === 'child') return user.parentId ?? null;
  return null;
}

/** The ids `scopeSchoolIdsSql` lists, as one int[] value in id order (an empty array for none). */
export function scopeSchoolIdsArraySql(idsSql: SQL): SQL<number[]> {
  return sql<number[]>`(select coalesce(array_agg(scope.id order by scope.id), '{}'::int[]) from (${idsSql}) as scope(id))`;
}

/** The caller's data scope, read fresh (the caller state reads it with the grant: caller-state.ts). */
export async function resolveSchoolScope(db: Database, user: ScopeSubject): Promise<SchoolScope> {
  const idsSql = scopeSchoolIdsSql(user);
  if (!idsSql) return { kind: 'all' };
  const [row] = await db.select({ ids: scopeSchoolIdsArraySql(idsSql) }).from(sql`(select 1) as one`);
  return { kind: 'schools', schoolIds: row?.ids ?? [] };
}

/**
 * The SQL condition limiting `column` (a school id column) to the scope: `true` for all, `false`
 * for none, else `column = ANY($ids::int[])` — one parameter however many schools, which PostgreSQL
 * plans as well as an IN list (ARCHITECTURE "Measured").
 */
export function scopeCondition(scope: SchoolScope, column: SQLWrapper): SQL {
  return termSql(scopeTerm(scope, column));
}

/** The scope's school ids as one int[] literal, joined once per scope object (a caller state keeps it). */
const idsLiteralOf = builtOnce((scope: { schoolIds: number[] }) => intArrayText(scope.schoolIds));

/** scopeCondition as a term (sql-terms.ts): the ids are its one value. */
export function scopeTerm(scope: SchoolScope, column: SQLWrapper): Term {
  if (scope.kind === 'all') return fixedTerm(sql`true`, 'all', sql`true`);
  if (scope.schoolIds.length === 0) return fixedTerm(sql`false`, 'none', sql`false`);
  // The walk's form: inside coalesce the ids match no index, and the planner takes the condition for
  // half the rows whatever they are, so a plan made without them costs what one made with them does.
  return boundTerm('schools', [idsLiteralOf(scope)], ([ids]) => sql`${column} = any(${ids}::int[])`, ([ids]) => sql`coalesce(${column} = any(${ids}::int[]), false)`);
}

/** Whether one school id lies inside the scope. */
export function isInScope(scope: SchoolScope, schoolId: number): boolean {
  return scope.kind === 'all' || scope.schoolIds.includes(schoolId);
}

/** The columns of an accounts table the account scope reads. */
export interface AccountColumns {
  id: SQLWrapper;
  type: SQLWrapper;
  parentId: SQLWrapper;
}

/**
 * What a row is reached for: `read` (lists, Get, references) or `manage` (Update, toggles, delete,
 * actions and transitions). They differ only for accounts shared between scopes.
 */
export type ScopePurpose = 'read' | 'manage';

/**
 * The accounts a caller may reach, among accounts of `types` (PRODUCT section 1, "who manages the
 * account"): company staff all of them; an agent its own child accounts and the external users
 * bound to one of its schools; a child account those same external users (never its siblings: only
 * the agent manages child accounts); sales people and external users none. To `manage` an external
 * user every school it is bound to must be in the caller's scope: one bound to schools of two agents
 * is listed for both, but neither may change, disable or delete what the other's school still uses.
 */
export function accountScopeCondition(user: ScopeSubject, schoolScope: SchoolScope, types: readonly UserType[], columns: AccountColumns, purpose: ScopePurpose = 'read'): SQL {
  const ofTypes = sql`${columns.type} in (${sql.join(types.map((type) => sql`${type}`), sql`, `)})`;
  if (user.type === 'company') return ofTypes;
  const reach: SQL[] = [];
  if (user.type === 'agent' && types.includes('child')) reach.push(sql`${columns.parentId} = ${user.id}`);
  if ((user.type === 'agent' || user.type === 'child') && types.includes('external')) {
    const boundToScope = sql`select ${userSchools.userId} from ${userSchools} where ${scopeCondition(schoolScope, userSchools.schoolId)}`;
    const boundElsewhere = sql`select ${userSchools.userId} from ${userSchools} where not (${scopeCondition(schoolScope, userSchools.schoolId)})`;
    reach.push(
      purpose === 'manage'
        ? sql`(${columns.type} = 'external' and ${columns.id} in (${boundToScope}) and ${columns.id} not in (${boundElsewhere}))`
        : sql`(${columns.type} = 'external' and ${columns.id} in (${boundToScope}))`,
    );
  }
  if (reach.length === 0) return sql`false`;
  return sql`${ofTypes} and (${sql.join(reach, sql` or `)})`;
}

/** The columns of the accounts table that say who may name an account. */
export interface NameableColumns {
  id: SQLWrapper;
  salesTeamId: SQLWrapper;
}

/**
 * The accounts a caller may name in a reference to an account by type (a school's agent or seller,
 * a delivery's agent, a ticket's assignee), as /api/User/Options offers them: company staff any; an
 * agent itself; a child account its agent; a sales person itself and, as a leader, its team; an
 * external user none. A reference to any other account answers what a missing one does, so account
 * ids cannot be probed and an agent cannot hand a row to another agent. `undefined`: no limit.
 */
export function nameableAccountCondition(user: NamingSubject, columns: NameableColumns): SQL | undefined {
  switch (user.type) {
    case 'company':
      return undefined;
    case 'agent':
      return sql`${columns.id} = ${user.id}`;
    case 'child':
      return sql`${columns.id} = ${user.parentId ?? 0}`;
    case 'sales':
      return user.sellerPosition === 'leader' && user.salesTeamId
        ? sql`(${columns.id} = ${user.id} or ${columns.salesTeamId} = ${user.salesTeamId})`
        : sql`${columns.id} = ${user.id}`;
    case 'external':
      return sql`false`;
  }
}

/**
 * One name per data scope, for what is recorded with the scope it was made in (uploaded files):
 * company staff share one; an agent and its child accounts share the agent's; a sales person and an
 * external user each have their own (a team leader's wider reach is not shared with its members).
 */
export function scopeOwnerKey(user: ScopeSubject): string {
  switch (user.type) {
    case 'company':
      return 'company';
    case 'agent':
      return `agent:${user.id}`;
    case 'child':
      return `agent:${user.parentId ?? 0}`;
    case 'sales':
    case 'external':
      return `${user.type}:${user.id}`;
  }
}
