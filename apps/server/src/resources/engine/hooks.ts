/** What a family adds to the generic engine: rules on writes and its named actions. */
import type { ResourceDef } from '@campus/contract';
import type { EngineContext, Row } from './context.js';

export type WriteOperation = 'add' | 'update';

export interface WriteInput {
  op: WriteOperation;
  /** Values about to be written (field names), already validated against the declaration. */
  values: Row;
  /** The stored row on update. */
  existing?: Row;
}

/** What a write changed, as the family's afterWrite sees it (inside the write's transaction). */
export interface WrittenChange {
  op: WriteOperation | 'toggle';
  ids: number[];
  /** The values written (field names; for a toggle, the one field). */
  values: Row;
  /** The stored row before an update. */
  existing?: Row;
}

export interface FamilyHooks {
  /** Adjusts or refuses values before they are written (throw badRequest with field errors). */
  beforeWrite?: (ctx: EngineContext, input: WriteInput) => Promise<Row> | Row;
  /**
   * Runs in the write's transaction (`ctx.db` is the transaction) after Add, Update and toggles, once
   * the engine stored the link fields: side effects such as ending a disabled account's sessions.
   * Throwing rolls the write back.
   */
  afterWrite?: (ctx: EngineContext, change: WrittenChange) => Promise<void>;
  /** Refuses a delete of the locked rows (throw), in the delete's transaction. */
  beforeDelete?: (ctx: EngineContext, rows: Row[]) => Promise<void> | void;
  /** Completes rows read by Search, Get and Export (wire form), after the engine filled in their link fields. */
  afterRead?: (ctx: EngineContext, rows: Row[]) => Promise<Row[]>;
  /**
   * Side effects of workflow transitions, by verb: run inside the transition's transaction after the
   * row is locked and its state checked (`ctx.db` is the transaction); answers extra column values to
   * set with the new state, or nothing. Throwing rolls the transition back.
   */
  transitions?: Record<string, (ctx: EngineContext, row: Row, input: Row) => Promise<Row | void>>;
  /** Named actions of the declaration: POST /api/{Family}/{verb} with `{ id, ...fields }`. */
  actions?: Record<string, (ctx: EngineContext, id: number, input: Row) => Promise<unknown>>;
}

const registry = new Map<string, FamilyHooks>();

/** Registers a family's hooks; called once per family module at start. */
export function defineFamilyHooks(def: ResourceDef, hooks: FamilyHooks): FamilyHooks {
  for (const action of def.actions ?? []) {
    if (!hooks.actions?.[action.verb]) throw new Error(`${def.name}: action '${action.verb}' is declared but has no handler`);
  }
  for (const verb of Object.keys(hooks.transitions ?? {})) {
    if (!def.workflow?.transitions.some((transition) => transition.verb === verb)) throw new Error(`${def.name}: hook for undeclared transition '${verb}'`);
  }
  registry.set(def.name, hooks);
  return hooks;
}

/** The hooks of a family, or none. */
export function hooksOf(def: ResourceDef): FamilyHooks {
  return registry.get(def.name) ?? {};
}
