/**
 * The engine's write services for custom code (the directus way): a family's action, a route or a
 * job that changes rows calls these instead of writing `version + 1` or an operation-log row by
 * hand, so every change bumps the version, honours a caller's version and is logged the same way.
 * They run in the caller's transaction (`db`); the caller has already checked scope and locked rows.
 */
import type { ResourceDef } from '@campus/contract';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { operationLog } from '../../db/schema/logs.js';
import { conflict, msg } from '../../platform/errors.js';
import type { Row } from './context.js';
import { columnOf } from './query.js';
import { tableOf } from './registry.js';

/**
 * The caller id of a write no console account made: the parent app's channel writes through the
 * engine as this stand-in, and its log entries name no user (the row itself names the parent).
 */
export const NO_CONSOLE_USER_ID = 0;

/** One operation-log entry: who did what to which rows of a family, with each change as `[before, after]`. */
export interface OperationEntry {
  /** The console account; NO_CONSOLE_USER_ID for the parent app's writes. */
  userId: number;
  family: string;
  /** Lower camel case as the engine writes them (`add`, `update`, `examine`). */
  action: string;
  ids: number[];
  changes?: Record<string, unknown>;
}

/** Writes one operation-log row in the caller's transaction. */
export async function logOperation(db: Executor, entry: OperationEntry): Promise<void> {
  const userId = entry.userId === NO_CONSOLE_USER_ID ? null : entry.userId;
  await db.insert(operationLog).values({ userId, family: entry.family, action: entry.action, ids: entry.ids, changes: entry.changes ?? {} });
}

/** Columns whose values never reach the log: hashes, sealed secrets and passwords are logged as `***`. */
const SECRET_COLUMN = /password|hash|sealed|secret(?!IssuedAt)/i;

export interface RecordUpdate {
  /** Columns to set (table property names), as stored. */
  values: Row;
  /** The version the caller read: a row at another version is not changed and the call answers 409. */
  expectedVersion?: number;
  /** Changes only rows still matching this too (a state the row must be in); the others are left out of the answer. */
  where?: SQL;
  /** The time stamped as `updatedAt` (the request's clock); the database's time when absent. */
  now?: Date;
  /**
   * Logs the change under the caller: `changes` when given (what a reader needs, e.g. no secret),
   * else each written column's `[before, after]` with secrets masked. No log for the system's own moves.
   */
  log?: { userId: number; action: string; changes?: Record<string, unknown> };
}

/**
 * Updates rows of a family: sets the values, bumps each version, stamps `updatedAt` and logs before →
 * after. Answers the rows changed with their new version.
 */
export async function updateRecords(db: Executor, def: ResourceDef, ids: number[], update: RecordUpdate): Promise<{ id: number; version: number }[]> {
  if (ids.length === 0) return [];
  const table = tableOf(def);
  const id = columnOf(table, 'id');
  // A family whose rows are never edited by form (a fever alert) keeps no version: nothing to bump.
  const isVersioned = 'version' in table;
  const version = isVersioned ? columnOf(table, 'version') : undefined;
  const keys = Object.keys(update.values);
  const needsBefore = update.log && !update.log.changes;
  const before = needsBefore
    ? ((await db
        .select(Object.fromEntries([['id', id], ...keys.map((key) => [key, columnOf(table, key)])]))
        .from(table)
        .where(inArray(id, ids))) as Row[])
    : [];
  const conditions = [inArray(id, ids), version && update.expectedVersion !== undefined ? eq(version, update.expectedVersion) : undefined, update.where];
  const stamps = version ? { version: sql`${version} + 1`, updatedAt: update.now ?? sql`now()` } : {};
  const changed = await db
    .update(table)
    .set({ ...update.values, ...stamps })
    .where(and(...conditions))
    .returning({ id, version: version ?? sql<number>`0` });
  if (update.expectedVersion !== undefined && changed.length < ids.length) throw conflict(msg('error.staleVersion'));
  const answer = changed.map((row) => ({ id: Number(row.id), version: Number(row.version) }));
  if (update.log && answer.length > 0) {
    const changes = update.log.changes ?? changesOf(keys, before, update.values);
    await logOperation(db, { userId: update.log.userId, family: def.name, action: update.log.action, ids: answer.map((row) => row.id), changes });
  }
  return answer;
}

/** `[before, after]` per written column: one before value when the rows agree, else the list of them. */
function changesOf(keys: string[], before: Row[], values: Row): Record<string, unknown> {
  return Object.fromEntries(
    keys.map((key) => {
      if (SECRET_COLUMN.test(key)) return [key, ['***', '***']];
      const olds = [...new Set(before.map((row) => serialised(row[key])))];
      const old = olds.length === 1 ? JSON.parse(olds[0]!) : before.map((row) => row[key] ?? null);
      return [key, [old, values[key] ?? null]];
    }),
  );
}

const serialised = (value: unknown): string => JSON.stringify(value instanceof Date ? value.toISOString() : (value ?? null));
