/**
 * Computed bools declared `until: '<datetime field>'` (a terminal's or an NVR's online state): true
 * while that time lies ahead of the request's time. Whatever hears from the thing (a terminal's signed
 * call, a terminal reaching an NVR) moves the time ahead; nothing has to flip it back, so no job runs
 * and every page agrees.
 */
import type { ResourceDef } from '@campus/contract';
import { gt, isNull, lte, or, type SQL } from 'drizzle-orm';
import type { ResourceTable } from '../../db/schema/table.js';
import { systemClock } from '../../platform/clock.js';
import type { Row } from './context.js';
import type { FamilyHooks, ReadConditionContext } from './hooks.js';
import { columnOf } from './query.js';

/** The request's time, as reads see it. */
export const nowOf = (ctx: ReadConditionContext): Date => (ctx.clock ?? systemClock).now();

/** Rows whose `field` lies ahead of `now`. */
export function untilCondition(table: ResourceTable, field: string, now: Date): SQL {
  return gt(columnOf(table, field), now);
}

/** The read and filter hooks of a family's `until` fields, around the family's own; the family's hooks unchanged without any. */
export function withUntilFields(def: ResourceDef, hooks: FamilyHooks): FamilyHooks {
  const fields = Object.entries(def.fields).flatMap(([name, field]) => (field.until ? [[name, field.until] as const] : []));
  if (fields.length === 0) return hooks;
  const filters: NonNullable<FamilyHooks['computedFilters']> = {};
  for (const [name, until] of fields) {
    // True: still ahead; false: passed, or never heard from.
    filters[name] = (ctx, table, value) =>
      value === true || value === 'true' ? untilCondition(table, until, nowOf(ctx)) : or(isNull(columnOf(table, until)), lte(columnOf(table, until), nowOf(ctx)))!;
  }
  return {
    ...hooks,
    computedFilters: { ...filters, ...hooks.computedFilters },
    async afterRead(ctx, rows) {
      const time = ctx.clock.now().getTime();
      const read = rows.map((row: Row) => {
        const values: Row = {};
        for (const [name, until] of fields) values[name] = row[until] !== null && row[until] !== undefined && Date.parse(String(row[until])) > time;
        return { ...row, ...values };
      });
      return hooks.afterRead ? hooks.afterRead(ctx, read) : read;
    },
  };
}
