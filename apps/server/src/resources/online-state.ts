/**
 * Online state from an `offlineAt` column: a row is online while that time lies ahead of the
 * request's time. Whatever hears from the thing (a terminal's signed call, a terminal reaching an
 * NVR) moves `offlineAt` ahead; nothing has to flip it back, so no job runs and every page agrees.
 */
import { gt, isNull, lte, or, type SQL } from 'drizzle-orm';
import { systemClock } from '../platform/clock.js';
import type { Row } from './engine/context.js';
import type { ReadConditionContext } from './engine/hooks.js';
import { columnOf } from './engine/query.js';
import type { ResourceTable } from '../db/schema/table.js';

/** The request's time, as reads see it. */
export const nowOf = (ctx: ReadConditionContext): Date => (ctx.clock ?? systemClock).now();

/** Rows online at `now`. */
export function onlineCondition(table: ResourceTable, now: Date): SQL {
  return gt(columnOf(table, 'offlineAt'), now);
}

/** The computed `online` of rows read at `now`. */
export function withOnline<R extends Row>(rows: readonly R[], now: Date): (R & { online: boolean })[] {
  const time = now.getTime();
  return rows.map((row) => ({ ...row, online: row.offlineAt !== null && row.offlineAt !== undefined && Date.parse(String(row.offlineAt)) > time }));
}

/** The filter of the computed `online` field: online rows for true, the others (never heard from included) for false. */
export function onlineFilter(ctx: ReadConditionContext, table: ResourceTable, value: unknown): SQL {
  const now = nowOf(ctx);
  if (value === true || value === 'true') return onlineCondition(table, now);
  return or(isNull(columnOf(table, 'offlineAt')), lte(columnOf(table, 'offlineAt'), now))!;
}
