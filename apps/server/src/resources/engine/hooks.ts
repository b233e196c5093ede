/**
 * What a family adds to the generic engine: rules on writes and its named actions. Hooks are typed
 * by their family's declaration (RowOf, StoredRowOf, WriteValuesOf); the engine calls them with
 * plain rows, which is what those types are for a declaration whose fields it does not know.
 */
import type { ResourceDef, RowOf, StoredRowOf, TransitionAnswer, VisibilityProbes, WriteValuesOf } from '@campus/contract';
import type { SQL } from 'drizzle-orm';
import type { Clock } from '../../platform/clock.js';
import type { EngineContext, Row } from './context.js';
import type { ResourceTable } from '../../db/schema/table.js';

/** What a family's read conditions may depend on besides the row: the caller's probes and the time. */
export interface ReadConditionContext {
  /** Absent where no caller is resolved: the family then keeps to what the most restricted caller sees. */
  probes?: VisibilityProbes;
  clock?: Clock;
}

export type WriteOperation = 'add' | 'update';

export interface WriteInput<D extends ResourceDef = ResourceDef> {
  op: WriteOperation;
  /** Values about to be written (field names), already validated against the declaration. */
  values: WriteValuesOf<D>;
  /** The stored row on update. */
  existing?: StoredRowOf<D>;
}

/** What a write changed, as the family's afterWrite sees it (inside the write's transaction). */
export interface WrittenChange<D extends ResourceDef = ResourceDef> {
  op: WriteOperation | 'toggle';
  ids: number[];
  /** The values written (field names; for a toggle, the one field). */
  values: WriteValuesOf<D>;
  /** The stored row before an update. */
  existing?: StoredRowOf<D>;
}

export interface FamilyHooks<D extends ResourceDef = ResourceDef> {
  /** Adjusts or refuses values before they are written (throw badRequest with field errors). */
  beforeWrite?: (ctx: EngineContext, input: WriteInput<D>) => Promise<WriteValuesOf<D>> | WriteValuesOf<D>;
  /**
   * Runs in the write's transaction (`ctx.db` is the transaction) after Add, Update and toggles, once
   * the engine stored the link fields: side effects such as ending a disabled account's sessions.
   * Throwing rolls the write back.
   */
  afterWrite?: (ctx: EngineContext, change: WrittenChange<D>) => Promise<void>;
  /** Refuses a delete of the locked rows (throw), in the delete's transaction. */
  beforeDelete?: (ctx: EngineContext, rows: StoredRowOf<D>[]) => Promise<void> | void;
  /**
   * Work outside the database once a delete committed (a stored file the rows alone named): it runs
   * only after the rows are gone, so a rolled-back delete never loses a file; a failure is logged.
   */
  afterDelete?: (ctx: EngineContext, rows: StoredRowOf<D>[]) => Promise<void>;
  /** Completes rows read by Search, Get and Export (wire form), after the engine filled in their link fields. */
  afterRead?: (ctx: EngineContext, rows: RowOf<D>[]) => Promise<RowOf<D>[]>;
  /**
   * Side effects of workflow transitions, by verb: run inside the transition's transaction after the
   * row is locked and its state checked (`ctx.db` is the transaction); answers extra column values to
   * set with the new state, or nothing. Throwing rolls the transition back.
   */
  transitions?: Record<string, (ctx: EngineContext, row: StoredRowOf<D>, input: Row) => Promise<Row | void>>;
  /**
   * Work after a transition's transaction committed, by verb: what must not hold the row's lock,
   * such as a refund's call to its provider. May answer the row's newer version and state, which the
   * caller then receives. A failure is logged and the transition stands (a job finishes the work).
   */
  afterTransitions?: Record<string, (ctx: EngineContext, answer: TransitionAnswer) => Promise<TransitionAnswer | void>>;
  /**
   * The filter of each `computed` field with a `filter` (those declared `until` have theirs from the
   * engine): the condition for the value asked, e.g. a device awaits a licence.
   */
  computedFilters?: Record<string, (ctx: ReadConditionContext, table: ResourceTable, value: unknown) => SQL>;
  /**
   * Rows a caller may not see at all, beyond its data scope (offline terminals, for a caller whose
   * `canShowOffline` is off): the condition keeping the others, applied with the scope to every read
   * and write, or nothing.
   */
  visibleWhere?: (ctx: ReadConditionContext, table: ResourceTable) => SQL | undefined;
  /** Named actions of the declaration: POST /api/{Family}/{verb} with `{ id, ...fields }`. */
  actions?: Record<string, (ctx: EngineContext, id: number, input: Row) => Promise<unknown>>;
}

let registry = new Map<string, FamilyHooks>();

/** Hands the engine the hooks of every family module, replacing any installed before (resources/families.ts). */
export function installHooks(entries: Iterable<[string, FamilyHooks]>): void {
  registry = new Map(entries);
}

/** The hooks of a family, or none. */
export function hooksOf(def: ResourceDef): FamilyHooks {
  return registry.get(def.name) ?? {};
}
