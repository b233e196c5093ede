/**
 * Account rules (userCompany, userExternal, userChild; which user types write each is declared: `writers`): who may create which type, the password an
 * administrator sets must be changed at next login, disabling or resetting an account ends its
 * sessions at once, nobody locks themself out, agent merchant ids need their probe, and an agent's
 * schools (an external user's bound schools are a link table the engine keeps).
 */
import { ChildUser, CompanyUser, ExternalUser, TwoFactorPolicySetting, type RowOf } from '@campus/contract';
import { and, inArray } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { schools } from '../db/schema/resources.js';
import { badRequest, forbidden, msg } from '../platform/errors.js';
import { scopeCondition } from '../platform/scope.js';
import { endSessionsOfUser } from '../platform/sessions.js';
import { removeTotpOf, twoFactorStatus } from '../platform/two-factor.js';
import type { EngineContext, Row } from './engine/context.js';
import type { WriteInput, WrittenChange } from './engine/hooks.js';
import { defineFamilyModule, withSharedRules } from './engine/modules.js';
import { valueAfter } from './engine/lookup.js';
import { rowAction } from './engine/row-actions.js';
import { twoFactorPolicyStore } from './two-factor-policy.js';

/**
 * Rules every account family shares, before the family's own: a password set here must be changed
 * by its owner at next login unless the administrator switched that off in the same request; an
 * administrator cannot disable their own account.
 */
function sharedBeforeWrite(ctx: EngineContext, { op, values, existing }: WriteInput): Row {
  const adjusted = { ...values };
  if (op === 'add' || adjusted.password !== undefined) adjusted.mustChangePassword = values.mustChangePassword ?? true;
  if (existing && Number(existing.id) === ctx.user.id && adjusted.enabled === false) {
    throw badRequest([{ path: 'enabled', ...msg('account.cannotDisableSelf') }]);
  }
  return adjusted;
}

/** Disabled accounts and accounts whose password an administrator reset lose every session at once. */
async function sharedAfterWrite(ctx: EngineContext, change: WrittenChange): Promise<void> {
  const isDisabled = change.values.enabled === false;
  if (isDisabled && change.ids.includes(ctx.user.id)) throw badRequest([{ path: 'enabled', ...msg('account.cannotDisableSelf') }]);
  const isPasswordReset = change.op === 'update' && change.values.password !== undefined;
  if (!isDisabled && !isPasswordReset) return;
  for (const id of change.ids) await endSessionsOfUser(ctx.db, id);
}

function refuseOwnDelete(ctx: EngineContext, rows: Row[]): void {
  if (rows.some((row) => Number(row.id) === ctx.user.id)) throw badRequest([{ path: 'id', ...msg('account.cannotDeleteSelf') }]);
}

/** The rules every account family shares, around its own. */
const accountRules = { beforeWrite: sharedBeforeWrite, afterWrite: sharedAfterWrite, beforeDelete: refuseOwnDelete };

export const companyUserModule = defineFamilyModule(CompanyUser, withSharedRules(accountRules, {
  settings: [{ def: TwoFactorPolicySetting, store: twoFactorPolicyStore }],
  beforeWrite(ctx, { values, existing }) {
    const adjusted = { ...values };
    if (existing && existing.id === ctx.user.id && adjusted.type !== undefined && adjusted.type !== existing.type) {
      throw badRequest([{ path: 'type', ...msg('account.cannotChangeOwnType') }]);
    }
    // A seller level means nothing for company staff.
    if (valueAfter(adjusted, existing, 'type') === 'company') adjusted.sellerPosition = null;
    return adjusted;
  },
  actions: {
    /**
     * A lost authenticator: removes it with the recovery codes and ends the account's sessions, so
     * it signs in with its password and enrols again. Not for one's own account, where a session
     * alone must not remove the second factor (the profile page asks for a code).
     */
    ResetTwoFactor: rowAction('ResetTwoFactor', async (ctx, existing) => {
      const id = Number(existing.id);
      if (id === ctx.user.id) throw badRequest([{ path: 'id', ...msg('twoFactor.cannotResetOwn') }]);
      const executor = ctx.db as unknown as Database;
      if (!(await twoFactorStatus(executor, id)).enabled) throw badRequest([{ path: 'id', ...msg('twoFactor.notEnabled') }]);
      await removeTotpOf(executor, id);
      await endSessionsOfUser(executor, id);
      // The operation log says the second factor was removed, never what it was.
      return { changes: { twoFactor: [true, false] }, answer: { id, twoFactor: false } };
    }),
  },
}));

/**
 * An agent's schools are not links but the schools naming it as their agent (schools.agent_id): they
 * are read here, in the caller's scope, after the engine filled in the bound schools of external users.
 */
async function schoolsOfAgents(ctx: EngineContext, rows: RowOf<typeof ExternalUser>[]): Promise<Map<number, { id: number; name: string }[]>> {
  const agentIds = rows.filter((row) => row.type === 'agent').map((row) => row.id);
  const byAgent = new Map<number, { id: number; name: string }[]>();
  if (agentIds.length === 0) return byAgent;
  const owned = await ctx.db
    .select({ agentId: schools.agentId, id: schools.id, name: schools.schoolName })
    .from(schools)
    .where(and(inArray(schools.agentId, agentIds), scopeCondition(ctx.scope, schools.id)))
    .orderBy(schools.id);
  for (const school of owned) byAgent.set(Number(school.agentId), [...(byAgent.get(Number(school.agentId)) ?? []), { id: school.id, name: school.name }]);
  return byAgent;
}

export const externalUserModule = defineFamilyModule(ExternalUser, withSharedRules(accountRules, {
  beforeWrite(ctx, { op, values, existing }) {
    const adjusted = { ...values };
    if (op === 'add') adjusted.type = adjusted.type ?? 'external';
    const type = valueAfter(adjusted, existing, 'type');
    // Only company staff create and change agents (company staff and sales people: the family's `writers`).
    if (type === 'agent' && ctx.user.type !== 'company') throw forbidden(msg('error.onlyCompanyManages', { what: { zh: '代理商', en: 'agents' } }));
    // An Update may clear the list with null: the row type says so, where a cast once hid it.
    const schoolIds = adjusted.schoolIds ?? [];
    if (type === 'agent' && schoolIds.length > 0) {
      throw badRequest([{ path: 'schoolIds', ...msg('account.agentSchoolsDerived') }]);
    }
    // An agent's new external user must see one of its schools, or it would vanish from the agent's list.
    if (type === 'external' && ctx.user.type !== 'company' && op === 'add' && schoolIds.length === 0) {
      throw badRequest([{ path: 'schoolIds', ...msg('account.bindOneSchool') }]);
    }
    return adjusted;
  },
  async afterRead(ctx, rows) {
    const byAgent = await schoolsOfAgents(ctx, rows);
    return rows.map((row) => {
      const owned = byAgent.get(row.id);
      return owned ? { ...row, schoolIds: owned.map((school) => school.id), schoolIdsLabel: owned.map((school) => school.name) } : row;
    });
  },
}));

export const childUserModule = defineFamilyModule(ChildUser, withSharedRules(accountRules, {
  beforeWrite(ctx, { op, values, existing }) {
    const adjusted = { ...values };
    if (ctx.user.type === 'agent') {
      // An agent's child accounts are its own: it names no other parent.
      if (op === 'add') adjusted.parentId = ctx.user.id;
      else if (adjusted.parentId !== undefined && adjusted.parentId !== existing?.parentId) {
        throw forbidden(msg('account.childStaysWithAgent'));
      }
    } else if (valueAfter(adjusted, existing, 'parentId') === null || valueAfter(adjusted, existing, 'parentId') === undefined) {
      throw badRequest([{ path: 'parentId', ...msg('account.chooseAgent') }]);
    }
    if (op === 'add') adjusted.type = 'child';
    return adjusted;
  },
  async afterWrite(ctx, change) {
    // A child account moved to another agent must sign in again under its new agent's grant and scope.
    if (change.op === 'update' && change.values.parentId !== undefined && change.values.parentId !== change.existing?.parentId) {
      await endSessionsOfUser(ctx.db, change.ids[0]!);
    }
  },
}));
