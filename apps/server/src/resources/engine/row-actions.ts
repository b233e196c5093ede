/**
 * The shape most named row actions share (issue a secret, set a password, acknowledge once): the row
 * is loaded in the caller's scope and locked (404 outside it), its new column values are worked out,
 * and it is updated through updateRecords, so the version moves and the log says before → after
 * (secrets masked) under the action's name.
 */
import type { EngineContext, Row } from './context.js';
import { updateRecords } from './services.js';
import { loadInScope } from './write.js';

/** What an action sets on its row, and what it answers the caller (a secret shown once, the row's id). */
export interface RowChange {
  values: Row;
  answer: unknown;
}

/** An action handler that changes the one row it names, in one transaction; `change` may refuse (throw). */
export function rowAction(action: string, change: (ctx: EngineContext, existing: Row, input: Row) => Promise<RowChange> | RowChange) {
  return (ctx: EngineContext, id: number, input: Row): Promise<unknown> =>
    ctx.db.transaction(async (tx) => {
      const inTransaction = { ...ctx, db: tx };
      const existing = await loadInScope(inTransaction, tx, id, true);
      const { values, answer } = await change(inTransaction, existing, input);
      await updateRecords(tx, ctx.def, [id], { values, now: ctx.clock.now(), log: { userId: ctx.user.id, action } });
      return answer;
    });
}
