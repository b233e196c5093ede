/**
 * The shape most named row actions share (issue a secret, set a password, acknowledge once, adjust a
 * balance, remove a second factor): the row is loaded in the caller's scope and locked (404 outside
 * it, before any other refusal could tell it exists), the action's work is done in the same
 * transaction, and the log says what changed under the action's name. An action that sets the row's
 * own columns goes through updateRecords (the version moves, before → after with secrets masked);
 * one whose work lies elsewhere (ledger entries, sessions) logs the changes it names.
 */
import type { EngineContext, Row } from './context.js';
import { updateRecords } from './services.js';
import { loadInScope, recordOperation } from './write.js';

/** What an action sets on its row or logs, and what it answers the caller (a secret shown once, the row's id). */
export type RowChange =
  | { values: Row; answer: unknown }
  /** The row's columns stay; the log says `changes` (what a reader needs, never a secret). */
  | { changes: Record<string, unknown>; answer: unknown };

/** An action handler on the one row it names, in one transaction; `change` may refuse (throw). */
export function rowAction(action: string, change: (ctx: EngineContext, existing: Row, input: Row) => Promise<RowChange> | RowChange) {
  return (ctx: EngineContext, id: number, input: Row): Promise<unknown> =>
    ctx.db.transaction(async (tx) => {
      const inTransaction = { ...ctx, db: tx };
      const existing = await loadInScope(inTransaction, tx, id, true);
      const done = await change(inTransaction, existing, input);
      if ('values' in done) await updateRecords(tx, ctx.def, [id], { values: done.values, now: ctx.clock.now(), log: { userId: ctx.user.id, action } });
      else await recordOperation(tx, ctx, action, [id], done.changes);
      return done.answer;
    });
}
