/** Which rows of a family a caller may name in a reference, or link to. */
import type { ResourceDef } from '@campus/contract';
import { eq, or, type SQL } from 'drizzle-orm';
import type { EngineContext } from './context.js';
import { columnOf, scopeWhere } from './query.js';
import type { ResourceTable } from './table.js';

/**
 * The rows of a family the caller may reference: its data scope; for accounts the accounts it
 * manages, and itself (an agent's child account names the agent as its parent).
 */
export function referenceScope(ctx: Pick<EngineContext, 'scope' | 'user'>, targetDef: ResourceDef | undefined, table: ResourceTable): SQL | undefined {
  if (!targetDef) return undefined;
  const inScope = scopeWhere({ ...ctx, def: targetDef }, table);
  return targetDef.scope.via === 'account' ? or(inScope, eq(columnOf(table, 'id'), ctx.user.id)) : inScope;
}
