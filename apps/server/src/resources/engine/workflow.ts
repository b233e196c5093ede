/**
 * Workflow families: a state field that only transitions move. Every transition runs the same way, in
 * one transaction: lock the row in scope, check its state, run the family's hook, set the state and
 * bump the version, write the state history and the operation log.
 */
import type { FieldDef, ResourceDef, StateHistoryEntry, StateValue, SystemTransitionDef, TransitionAnswer, TransitionDef } from '@campus/contract';
import { and, asc, eq } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.js';
import { users } from '../../db/schema/users.js';
import { stateHistory } from '../../db/schema/workflow.js';
import type { ServerMessage } from '@campus/contract';
import { conflict, msg } from '../../platform/errors.js';
import { checkRefundPassword } from '../../platform/refund-password.js';
import type { EngineContext, Row } from './context.js';
import { announceWrite } from './live.js';
import { hooksOf } from './hooks.js';
import { toDb } from './query.js';
import { sameState, stateLabelOf, stateOptionsOf } from './states.js';
import { checkReferences, loadInScope, lockRowsInScope, recordOperation } from './write.js';
import { refuseOtherWriters } from './field-rules.js';
import { updateRecords } from './services.js';

/** What a transition's body carries once validated. */
export type TransitionInput = Row & { id: number; version?: number; reauthPassword?: string };

/**
 * Refuses to start on a workflow that names a state its enum lacks, chooses its target by a field
 * that is not a bool of the transition, or repeats a verb (programming errors, caught at boot).
 */
export function assertWorkflow(def: ResourceDef): void {
  const workflow = def.workflow;
  if (!workflow) return;
  const options = stateOptionsOf(def, workflow);
  const isState = (value: StateValue) => options.some((option) => sameState(option.value, value));
  const fail = (message: string) => {
    throw new Error(`${def.name} workflow: ${message}`);
  };
  if (!isState(workflow.initial)) fail(`initial state ${workflow.initial} is not an option of '${workflow.field}'`);
  for (const state of [...(workflow.editableIn ?? []), ...(workflow.deletableIn ?? [])]) {
    if (!isState(state)) fail(`editableIn / deletableIn: state ${state} is not an option of '${workflow.field}'`);
  }
  const verbs = new Set((def.actions ?? []).map((action) => action.verb));
  for (const transition of workflow.systemTransitions ?? []) {
    if (verbs.has(transition.verb)) fail(`verb '${transition.verb}' is declared twice`);
    verbs.add(transition.verb);
    for (const state of [...transition.from, transition.to]) if (!isState(state)) fail(`${transition.verb}: state ${state} is not an option of '${workflow.field}'`);
  }
  for (const transition of workflow.transitions) {
    if (verbs.has(transition.verb)) fail(`verb '${transition.verb}' is declared twice`);
    verbs.add(transition.verb);
    const targets = typeof transition.to === 'object' ? [transition.to.cases.true, transition.to.cases.false] : [transition.to];
    for (const state of [...transition.from, ...targets]) if (!isState(state)) fail(`${transition.verb}: state ${state} is not an option of '${workflow.field}'`);
    if (typeof transition.to === 'object' && transition.fields?.[transition.to.by]?.kind !== 'bool') {
      fail(`${transition.verb}: 'to.by' must name a bool field of the transition`);
    }
    if (transition.batch && (transition.reauth || typeof transition.to === 'object')) fail(`${transition.verb}: a batch transition takes no reauth and no 'to.by'`);
  }
}

/** The state a transition reaches with this input. */
export function targetState(transition: TransitionDef, input: Row): StateValue {
  const { to } = transition;
  return typeof to === 'object' ? (input[to.by] === true ? to.cases.true : to.cases.false) : to;
}

function wrongStateMessage(ctx: EngineContext, transition: TransitionDef, current: unknown): ServerMessage {
  return msg('error.wrongState', { state: stateLabelOf(ctx.def, current), action: transition.label });
}

/** References among the transition's fields must point at rows the caller may pick (an assignee of the right type). */
async function checkTransitionReferences(ctx: EngineContext, db: Executor, transition: TransitionDef, id: number, input: Row): Promise<void> {
  const fields = transition.fields ?? {};
  if (!Object.values(fields).some((field) => field.kind === 'reference')) return;
  await checkReferences({ ...ctx, def: { ...ctx.def, fields } }, db, { ...input, id });
}

/**
 * Column values a transition writes besides the state: its fields named like a field of the row
 * (an assignee, a resolution) are stored on the row; the others (a remark) only in the history.
 */
function rowValuesOf(def: ResourceDef, input: Row): Row {
  const values: Row = {};
  for (const [name, value] of Object.entries(input)) {
    const field: FieldDef | undefined = def.fields[name];
    if (field && value !== undefined) values[name] = toDb(field, value);
  }
  return values;
}

/** The row fields a transition's `stamps` name: the time of the move, the caller, the remark. */
function stampsOf(ctx: EngineContext, transition: TransitionDef, input: Row): Row {
  const { at, by, remark } = transition.stamps ?? {};
  return { ...(at ? { [at]: ctx.clock.now() } : {}), ...(by ? { [by]: ctx.user.id } : {}), ...(remark ? { [remark]: input.remark ?? null } : {}) };
}

/**
 * Moves one row the caller locked in `tx` (module doc); a row in another state answers 409 made by
 * `wrongState` and nothing changes. The family's transition hook runs inside; its after-hook is the caller's.
 */
async function moveLockedRow(ctx: EngineContext, tx: Executor, transition: TransitionDef, row: Row, input: Row, wrongState: (current: unknown) => ServerMessage, version?: number): Promise<TransitionAnswer> {
  const workflow = ctx.def.workflow!;
  const id = Number(row.id);
  const from = row[workflow.field];
  refuseOtherWriters(ctx);
  if (!transition.from.some((state) => sameState(from, state))) throw conflict(wrongState(from));
  if (version !== undefined && Number(row.version) !== version) throw conflict(msg('error.staleVersion'));
  await checkTransitionReferences(ctx, tx, transition, id, input);
  const to = targetState(transition, input);
  const extra = (await hooksOf(ctx.def).transitions?.[transition.verb]?.({ ...ctx, db: tx as Database }, row, input)) ?? {};
  const stateField = ctx.def.fields[workflow.field]!;
  const [updated] = await updateRecords(tx, ctx.def, [id], { values: { ...rowValuesOf(ctx.def, input), ...stampsOf(ctx, transition, input), ...extra, [workflow.field]: toDb(stateField, to) }, now: new Date() });
  const remark = typeof input.remark === 'string' && input.remark !== '' ? input.remark : null;
  await writeStateHistory(tx, { family: ctx.def.name, rowId: id, from, to, verb: transition.verb, remark, userId: ctx.user.id });
  const given = Object.fromEntries(Object.entries(input).map(([name, value]) => [name, [row[name] ?? null, value]]));
  await recordOperation(tx, ctx, operationName(transition.verb), [id], { ...given, [workflow.field]: [from ?? null, to] });
  return { id, version: updated!.version, state: to };
}

/** The family's work after a committed transition (a notice, a file): logged, never undoing the move. */
async function afterTransition(ctx: EngineContext, transition: TransitionDef, answer: TransitionAnswer): Promise<TransitionAnswer> {
  const after = hooksOf(ctx.def).afterTransitions?.[transition.verb];
  if (!after) return answer;
  try {
    return (await after(ctx, answer)) ?? answer;
  } catch (error) {
    ctx.server.log.error({ err: error, family: ctx.def.name, id: answer.id, verb: transition.verb }, 'work after a transition failed');
    return answer;
  }
}

/** Runs one transition on one row (module doc); a wrong state or a stale version answers 409 and changes nothing. */
export async function runTransition(ctx: EngineContext, transition: TransitionDef, body: TransitionInput): Promise<TransitionAnswer> {
  const { id, version, reauthPassword, ...input } = body;
  // The slow hash is checked before the row is locked, so a transition never holds the lock through it;
  // a row outside the scope is 404 first, so a password answer never tells anything about it.
  if (transition.reauth) {
    await loadInScope(ctx, ctx.db, id);
    await checkRefundPassword(ctx.db, ctx.user.id, reauthPassword, ctx.clock.now());
  }
  let locked: Row = {};
  const answer = await ctx.db.transaction(async (tx): Promise<TransitionAnswer> => {
    const row = await loadInScope(ctx, tx, id, true);
    locked = row;
    return moveLockedRow(ctx, tx, transition, row, input, (current) => wrongStateMessage(ctx, transition, current), version);
  });
  announceWrite(ctx, [locked]);
  return afterTransition(ctx, transition, answer);
}

/**
 * Runs a batch transition (`TransitionDef.batch`): locks every listed row in scope (any missing is
 * 404), then moves them one by one in the same transaction; the first row in another state answers
 * 409 naming it, and the whole batch is rolled back. After-hooks run per row once it committed.
 */
export async function runBatchTransition(ctx: EngineContext, transition: TransitionDef, body: Row & { ids: number[] }): Promise<{ items: TransitionAnswer[] }> {
  const { ids, ...input } = body;
  const wanted = [...new Set(ids)];
  let locked: Row[] = [];
  const items = await ctx.db.transaction(async (tx) => {
    const rows = await lockRowsInScope(ctx, tx, wanted);
    locked = rows;
    const byId = new Map(rows.map((row) => [Number(row.id), row]));
    const answers: TransitionAnswer[] = [];
    for (const id of wanted) {
      const row = byId.get(id)!;
      const title = String(row[ctx.def.titleField] ?? id);
      answers.push(await moveLockedRow(ctx, tx, transition, row, input, (current) => msg('error.wrongStateRow', { title, state: stateLabelOf(ctx.def, current), action: transition.label })));
    }
    return answers;
  });
  announceWrite(ctx, locked);
  const done: TransitionAnswer[] = [];
  for (const answer of items) done.push(await afterTransition(ctx, transition, answer));
  return { items: done };
}

/** One step of a row's timeline, written in the transaction that changed the state. */
export interface StateChange {
  family: string;
  rowId: number;
  from: unknown;
  to: StateValue;
  verb: string;
  remark?: string | null;
  /** The operator, or null when the platform moved the row (a device's acknowledgement, an expiry). */
  userId: number | null;
}

/** Writes one step of the state history (the drawer's timeline). */
export async function writeStateHistory(db: Executor, change: StateChange): Promise<void> {
  await db.insert(stateHistory).values({
    family: change.family,
    rowId: change.rowId,
    fromState: change.from === null || change.from === undefined ? null : String(change.from),
    toState: String(change.to),
    verb: change.verb,
    remark: change.remark ?? null,
    userId: change.userId,
  });
}

/** A declared system transition by verb; asking for an undeclared one is a programming error. */
export function systemTransitionOf(def: ResourceDef, verb: string): SystemTransitionDef {
  const transition = def.workflow?.systemTransitions?.find((candidate) => candidate.verb === verb);
  if (!transition) throw new Error(`${def.name}: no system transition '${verb}'`);
  return transition;
}

/**
 * Runs a system transition (`WorkflowDef.systemTransitions`) on a row the caller has already locked
 * (`row` as selected): refuses a row whose state is not in `from` with 409 naming the state, then sets
 * the state and `values`, bumps the version and writes the history with no user. No operation-log
 * entry: nobody operated, and the history says what happened.
 */
export async function applySystemTransition(
  db: Executor,
  def: ResourceDef,
  row: Row,
  verb: string,
  options: { values?: Row; remark?: string | null; now: Date },
): Promise<void> {
  const workflow = def.workflow!;
  const transition = systemTransitionOf(def, verb);
  const from = row[workflow.field];
  if (!transition.from.some((state) => sameState(from, state))) {
    throw conflict(msg('error.wrongState', { state: stateLabelOf(def, from), action: transition.label }));
  }
  const id = Number(row.id);
  await updateRecords(db, def, [id], { values: { ...(options.values ?? {}), [workflow.field]: toDb(def.fields[workflow.field]!, transition.to) }, now: options.now });
  await writeStateHistory(db, { family: def.name, rowId: id, from, to: transition.to, verb, remark: options.remark, userId: null });
}

/** The operation log names actions in lower camel case (`add`, `update`, `examine`). */
const operationName = (verb: string) => verb.charAt(0).toLowerCase() + verb.slice(1);

/** A stored state (text) as the enum's value, so numeric states read back as numbers. */
function storedState(def: ResourceDef, stored: string | null): StateValue | null {
  if (stored === null) return null;
  return stateOptionsOf(def, def.workflow!).find((option) => sameState(option.value, stored))?.value ?? stored;
}

/** The state history of one row in scope, oldest first; 404 outside the scope. */
export async function readHistory(ctx: EngineContext, id: number): Promise<StateHistoryEntry[]> {
  await loadInScope(ctx, ctx.db, id);
  const rows = await ctx.db
    .select({
      at: stateHistory.createdAt,
      userId: stateHistory.userId,
      userName: users.name,
      from: stateHistory.fromState,
      to: stateHistory.toState,
      verb: stateHistory.verb,
      remark: stateHistory.remark,
    })
    .from(stateHistory)
    .leftJoin(users, eq(users.id, stateHistory.userId))
    .where(and(eq(stateHistory.family, ctx.def.name), eq(stateHistory.rowId, id)))
    .orderBy(asc(stateHistory.createdAt), asc(stateHistory.id));
  return rows.map((entry) => ({
    ...entry,
    at: entry.at.toISOString(),
    from: storedState(ctx.def, entry.from),
    to: storedState(ctx.def, entry.to)!,
  }));
}
