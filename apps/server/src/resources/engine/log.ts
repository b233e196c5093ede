/**
 * The log kind (`mode: 'log'`): read-only rows ordered by (time desc, id desc), searched within a
 * time range that defaults to the last `defaultDays` days, and paged by key so page 500 costs what
 * page 1 does (an OFFSET reads and drops every row before the page).
 */
import { DEFAULT_LOG_DAYS, idSchema, type LogDef, type ResourceDef } from '@campus/contract';
import { asc, desc, sql, type SQL } from 'drizzle-orm';
import { badRequest, msg } from '../../platform/errors.js';
import type { EngineContext, Row } from './context.js';
import { boundTerm, fixedTerm, termSql, type Term } from '../../platform/sql-terms.js';
import { columnOf, filterTerms, scopeTermOf } from './query.js';
import { whereOf, type SearchAsk } from './search-statement.js';
import type { ResourceTable } from '../../db/schema/table.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Where a key page continues: after the row (older rows, `next`) or before it (newer rows, `prev`). */
export interface LogCursor {
  time: Date;
  id: number;
  direction: 'next' | 'prev';
}

/** The log declaration of a family, checked: the time field must be a ranged datetime. */
export function logDefOf(def: ResourceDef): LogDef {
  const log = def.log;
  if (!log) throw new Error(`${def.name} is a log family without a log declaration`);
  const time = def.fields[log.timeField];
  if (time?.kind !== 'datetime' || time.filter !== 'range') throw new Error(`${def.name}.${log.timeField} must be a datetime field with filter 'range'`);
  if (log.hideField && def.fields[log.hideField]?.kind !== 'bool') throw new Error(`${def.name}.${log.hideField} must be a bool field`);
  return log;
}

/** The opaque cursor text: base64url of `[direction, time in ms, id]`. */
export function encodeCursor(cursor: LogCursor): string {
  return Buffer.from(JSON.stringify([cursor.direction === 'next' ? 'n' : 'p', cursor.time.getTime(), cursor.id])).toString('base64url');
}

/** Reads a cursor a client sent back; anything else answers 400 on `cursor`. */
export function decodeCursor(text: string): LogCursor {
  const invalid = () => badRequest([{ path: 'cursor', ...msg('log.badCursor') }]);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(parsed) || parsed.length !== 3) throw invalid();
  const [direction, ms, id] = parsed as unknown[];
  // The id goes to a 32-bit column and the time to a timestamptz: beyond them the query would fail
  // with a 500. Log rows are written after 1970 and before 10000, so no cursor time lies elsewhere.
  const isId = typeof id === 'number' && idSchema.safeParse(id).success;
  const time = new Date(typeof ms === 'number' && Number.isSafeInteger(ms) && ms >= 0 ? ms : Number.NaN);
  const isTime = !Number.isNaN(time.getTime()) && time.getUTCFullYear() <= 9999;
  if ((direction !== 'n' && direction !== 'p') || !isTime || !isId) throw invalid();
  return { direction: direction === 'n' ? 'next' : 'prev', time, id: id as number };
}

/**
 * The time range a Search or Export applies: the caller's, or the last `defaultDays` days up to now
 * (open-ended, so rows written while the page is open still appear on page 1).
 */
export function logRange(def: ResourceDef, filters: Row, now: Date): { from?: string; to?: string } {
  const log = logDefOf(def);
  const from = filters[`${log.timeField}From`] as string | undefined;
  const to = filters[`${log.timeField}To`] as string | undefined;
  if (from !== undefined || to !== undefined) return { from, to };
  return { from: new Date(now.getTime() - (log.defaultDays ?? DEFAULT_LOG_DAYS) * DAY_MS).toISOString() };
}

/** The filters with the range applied, as filterWhere reads them. */
export function withLogRange(def: ResourceDef, filters: Row, range: { from?: string; to?: string }): Row {
  const { timeField } = logDefOf(def);
  return { ...filters, [`${timeField}From`]: range.from, [`${timeField}To`]: range.to };
}

/** Hidden rows are left out unless the caller filters on the hide flag (true: only hidden rows). */
export function hiddenCondition(def: ResourceDef, table: ResourceTable, filters: Row): SQL | undefined {
  const { hideField } = logDefOf(def);
  if (!hideField || filters[hideField] !== undefined) return undefined;
  return sql`${columnOf(table, hideField)} is not true`;
}

/** Newest first (or oldest first, to read the page before a cursor); id breaks ties of equal times. */
export function logOrder(def: ResourceDef, table: ResourceTable, direction: 'next' | 'prev' = 'next'): SQL[] {
  const by = direction === 'next' ? desc : asc;
  return [by(columnOf(table, logDefOf(def).timeField)), by(columnOf(table, 'id'))];
}

/**
 * Rows after (older than) or before (newer than) the cursor's row. A row comparison, so PostgreSQL
 * reads the `(…, time, id)` index from the cursor on instead of filtering every row of the range.
 */
export function keyCondition(def: ResourceDef, table: ResourceTable, cursor: LogCursor): SQL {
  return termSql(keyTerm(def, table, cursor));
}

/** keyCondition as a term (platform/sql-terms.ts): the cursor's time and id are its values. */
function keyTerm(def: ResourceDef, table: ResourceTable, cursor: LogCursor): Term {
  const time = columnOf(table, logDefOf(def).timeField);
  const id = columnOf(table, 'id');
  return boundTerm(`from cursor ${cursor.direction}`, [cursor.time.toISOString(), cursor.id], ([at, key]) =>
    cursor.direction === 'next' ? sql`(${time}, ${id}) < (${at}::timestamptz, ${key}::int)` : sql`(${time}, ${id}) > (${at}::timestamptz, ${key}::int)`,
  );
}

/** The cursor continuing from a stored row in one direction. */
export function cursorAt(def: ResourceDef, row: Row, direction: 'next' | 'prev'): string {
  const time = row[logDefOf(def).timeField];
  return encodeCursor({ direction, id: Number(row.id), time: time instanceof Date ? time : new Date(String(time)) });
}

/**
 * The conditions of a log Search and Export (and of the benchmarks timing them): the caller's scope,
 * the filters within the range asked for or the default one, and hidden rows left out.
 */
export function logWhere(ctx: EngineContext, table: ResourceTable, filters: Row, now: Date): { where: SQL | undefined; range: ReturnType<typeof logRange> } {
  const range = logRange(ctx.def, filters, now);
  return { where: whereOf(logTerms(ctx, table, filters, range)), range };
}

/** A log Search's ask (search-statement.ts): logWhere's conditions from the cursor on, newest first (oldest first before a cursor). */
export function logAskOf(ctx: EngineContext, table: ResourceTable, filters: Row, now: Date, cursor?: LogCursor): { ask: SearchAsk; range: ReturnType<typeof logRange> } {
  const range = logRange(ctx.def, filters, now);
  const terms = logTerms(ctx, table, filters, range);
  if (cursor) terms.push(keyTerm(ctx.def, table, cursor));
  const direction = cursor?.direction ?? 'next';
  return { ask: { terms, order: { shape: direction, sql: () => logOrder(ctx.def, table, direction), byKey: false } }, range };
}

function logTerms(ctx: EngineContext, table: ResourceTable, filters: Row, range: ReturnType<typeof logRange>): Term[] {
  const scope = scopeTermOf(ctx, table);
  const hidden = hiddenCondition(ctx.def, table, filters);
  return [...(scope ? [scope] : []), ...filterTerms(ctx, table, withLogRange(ctx.def, filters, range)), ...(hidden ? [fixedTerm(hidden, 'shown only')] : [])];
}
