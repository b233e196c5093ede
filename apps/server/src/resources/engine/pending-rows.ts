/**
 * A family's rows waiting for someone (a module's `pending`): counted by a menu badge and, when the
 * family declares the computed filter it names, listed by it. Both read the one condition through the
 * family's own scope, so the badge and the list it leads to cannot disagree.
 */
import type { BadgeKey, ResourceDef } from '@campus/contract';
import { and, count, not, type SQL } from 'drizzle-orm';
import type { ResourceTable } from '../../db/schema/table.js';
import type { Badge } from '../../platform/badges.js';
import type { FamilyHooks } from './hooks.js';
import { scopeWhere } from './query.js';
import { tableOf } from './registry.js';

export interface PendingRows {
  badge: BadgeKey;
  /** The rows waiting, over the family's table (or the same table under another name). */
  where: (table: ResourceTable) => SQL;
  /** The computed bool filter listing them: its name, and the value that lists the pending rows (the other lists the rest). */
  filter?: { name: string; pending: boolean };
}

/** The badge counting a family's pending rows in the caller's scope. */
export function pendingRowsBadge(def: ResourceDef, pending: PendingRows): Badge {
  return {
    key: pending.badge,
    count: async ({ db, user, scope }) => {
      const table = tableOf(def);
      const [row] = await db.select({ total: count() }).from(table).where(and(pending.where(table), scopeWhere({ def, user, scope }, table)));
      return row?.total ?? 0;
    },
  };
}

/** The family's hooks with the filter of its pending rows; unchanged without one. */
export function withPendingFilter(pending: PendingRows | undefined, hooks: FamilyHooks): FamilyHooks {
  const filter = pending?.filter;
  if (!filter) return hooks;
  const listsPending = (value: unknown) => (value === true || value === 'true') === filter.pending;
  return { ...hooks, computedFilters: { ...hooks.computedFilters, [filter.name]: (_ctx, table, value) => (listsPending(value) ? pending.where(table) : not(pending.where(table))) } };
}
