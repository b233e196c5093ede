/** Which rows of a family a caller may name in a reference, or link to. */
import { PLAIN_REFERENCE_FAMILIES, RESOURCES } from '@campus/contract';
import { eq, or, type SQL } from 'drizzle-orm';
import { nameableAccountCondition } from '../../platform/scope.js';
import type { EngineContext } from './context.js';
import { columnOf, scopeWhere } from './query.js';
import type { ResourceTable } from '../../db/schema/table.js';

type Namer = Pick<EngineContext, 'scope' | 'user'>;

/**
 * Families without a declaration that references still name (accounts by type: a school's agent):
 * each says which of its rows a caller may name. Typed by the contract's list, so a new plain family
 * cannot be referenced without saying who may name its rows.
 */
const PLAIN_FAMILY_SCOPES: Record<(typeof PLAIN_REFERENCE_FAMILIES)[number], (ctx: Namer, table: ResourceTable) => SQL | undefined> = {
  User: (ctx, table) => nameableAccountCondition(ctx.user, { id: columnOf(table, 'id'), salesTeamId: columnOf(table, 'salesTeamId') }),
};

const isPlainFamily = (family: string): family is keyof typeof PLAIN_FAMILY_SCOPES => (PLAIN_REFERENCE_FAMILIES as readonly string[]).includes(family);

/**
 * The rows of a family the caller may reference: its data scope; for accounts the accounts it
 * manages, and itself (an agent's child account names the agent as its parent); for a plain family
 * the rows its picker offers. A row beyond them answers what a missing row does, so other scopes'
 * rows cannot be probed through a write's messages.
 */
export function referenceScope(ctx: Namer, family: string, table: ResourceTable): SQL | undefined {
  if (isPlainFamily(family)) return PLAIN_FAMILY_SCOPES[family](ctx, table);
  const targetDef = RESOURCES[family];
  if (!targetDef) throw new Error(`reference to undeclared family ${family}`);
  const inScope = scopeWhere({ ...ctx, def: targetDef }, table);
  return targetDef.scope.via === 'account' ? or(inScope, eq(columnOf(table, 'id'), ctx.user.id)) : inScope;
}
