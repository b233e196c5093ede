/**
 * A family's rows waiting for someone (a module's `pending`): counted by a menu badge and, when the
 * family declares the computed filter it names, listed by it. Both read the one condition through the
 * family's own scope, so the badge and the list it leads to cannot disagree.
 */
import type { BadgeKey, ResourceDef } from '@campus/contract';
import { and, count, eq, inArray, not, type SQL } from 'drizzle-orm';
import type { ResourceTable } from '../../db/schema/table.js';
import type { Badge } from '../../platform/badges.js';
import type { FamilyHooks } from './hooks.js';
import { columnOf, scopeWhere } from './query.js';
import { tableOf } from './registry.js';

export interface PendingRows {
  badge: BadgeKey;
  /**
   * The rows waiting, over the family's table (or the same table under another name): a condition, or
   * the values fields hold (`{ state: REFUND_APPLIED }`, a list for any of several).
   */
  where: ((table: ResourceTable) => SQL) | Readonly<Record<string, string | number | boolean | readonly (string | number)[]>>;
  /** The computed bool filter listing them: its name, and the value that lists the pending rows (the other lists the rest). */
  filter?: { name: string; pending: boolean };
}

/** The condition of a family's pending rows over `table`. */
function pendingWhere(pending: PendingRows, table: ResourceTable): SQL {
  if (typeof pending.where === 'function') return pending.where(table);
  const held = Object.entries(pending.where).map(([field, value]) => (Array.isArray(value) ? inArray(columnOf(table, field), value) : eq(columnOf(table, field), value)));
  return and(...held)!;
}

/** The badge counting a family's pending rows in the caller's scope. */
export function pendingRowsBadge(def: ResourceDef, pending: PendingRows): Badge {
  return {
    key: pending.badge,
    count: async ({ db, user, scope }) => {
      const table = tableOf(def);
      const [row] = await db.select({ total: count() }).from(table).where(and(pendingWhere(pending, table), scopeWhere({ def, user, scope }, table)));
      return row?.total ?? 0;
    },
  };
}

/** The family's hooks with the filter of its pending rows; unchanged without one. */
export function withPendingFilter(pending: PendingRows | undefined, hooks: FamilyHooks): FamilyHooks {
  const filter = pending?.filter;
  if (!filter) return hooks;
  const listsPending = (value: unknown) => (value === true || value === 'true') === filter.pending;
  return { ...hooks, computedFilters: { ...hooks.computedFilters, [filter.name]: (_ctx, table, value) => (listsPending(value) ? pendingWhere(pending, table) : not(pendingWhere(pending, table))) } };
}
