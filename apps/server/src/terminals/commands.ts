/**
 * The device's side of remote commands (TerminalCommand): what a heartbeat hands out and what an
 * acknowledgement records, registered with the intake (intake-handlers.ts), plus the expiry sweep.
 *
 * Retries: a command handed out and not acknowledged within COMMAND_RESEND_AFTER_MS is handed out
 * again at a later heartbeat, COMMAND_MAX_ATTEMPTS times in all. Still unacknowledged after the last
 * attempt, it FAILS (system transition GiveUp) rather than waiting out its day: a device that keeps
 * asking but never answers one command will not answer it, and the operator should know now. A device
 * that is offline is never asked, so its commands keep their attempts and simply expire.
 *
 * Every state change goes through the engine's applySystemTransition: the row is locked, a wrong
 * state answers 409 and changes nothing, and the drawer's timeline records the step.
 */
import {
  COMMAND_MAX_ATTEMPTS,
  COMMAND_RESEND_AFTER_MS,
  OPEN_COMMAND_STATES,
  TERMINAL_COMMAND_STATES as S,
  TerminalCommand,
  type CommandAckBody,
  type IntakeCommand,
  type TerminalCommandKind,
} from '@campus/contract';
import { and, asc, eq, inArray, lte } from 'drizzle-orm';
import type { Database, Executor } from '../db/client.js';
import { terminalCommands } from '../db/schema/resources.js';
import type { DailyJob } from '../platform/daily-jobs.js';
import { msg, notFound } from '../platform/errors.js';
import type { Row } from '../resources/engine/context.js';
import { applySystemTransition } from '../resources/engine/workflow.js';
import type { CommandHandlers, IntakeDevice } from './intake-handlers.js';

/** What follows a command's success: a template applied is remembered on its terminal (terminal-config.ts). */
type SuccessListener = (db: Executor, command: Row, now: Date) => Promise<void>;
const successListeners: SuccessListener[] = [];

/** Runs `listener` in the acknowledgement's transaction whenever a command succeeds. */
export function onCommandSucceeded(listener: SuccessListener): void {
  successListeners.push(listener);
}

/** Rows per expiry transaction: the sweep never holds many command locks at once. */
const EXPIRY_BATCH = 500;

/** Expires open commands whose day is over (one device's, or all); answers how many. */
export async function expireDueCommands(db: Executor, now: Date, deviceId?: number): Promise<number> {
  const due = and(
    inArray(terminalCommands.state, [...OPEN_COMMAND_STATES]),
    lte(terminalCommands.expiresAt, now),
    deviceId === undefined ? undefined : eq(terminalCommands.deviceId, deviceId),
  );
  const rows = await db.select().from(terminalCommands).where(due).orderBy(asc(terminalCommands.id)).limit(EXPIRY_BATCH).for('update', { skipLocked: true });
  for (const row of rows) await applySystemTransition(db, TerminalCommand, row, 'Expire', { values: { finishedAt: now }, now });
  return rows.length;
}

/** The daily sweep: commands of devices that never called again expire too. */
export const commandExpiryJob: DailyJob = {
  name: 'terminal-command-expiry',
  run: async (db: Database, now) => {
    let expired = 0;
    for (;;) {
      const batch = await db.transaction((tx) => expireDueCommands(tx, now));
      expired += batch;
      if (batch < EXPIRY_BATCH) return { expired };
    }
  },
};

const isDue = (row: Row, now: Date) =>
  row.state === S.QUEUED || (row.sentAt instanceof Date && now.getTime() - row.sentAt.getTime() >= COMMAND_RESEND_AFTER_MS);

/** Commands the device is handed now (module doc), oldest first, marked SENT with one more attempt. */
export async function commandsFor(tx: Executor, device: IntakeDevice, now: Date): Promise<IntakeCommand[]> {
  await expireDueCommands(tx, now, device.id);
  const open = await tx
    .select()
    .from(terminalCommands)
    .where(and(eq(terminalCommands.deviceId, device.id), inArray(terminalCommands.state, [S.QUEUED, S.SENT])))
    .orderBy(asc(terminalCommands.id))
    .for('update');
  const handed: IntakeCommand[] = [];
  for (const row of open.filter((candidate) => isDue(candidate, now))) {
    const attempts = Number(row.attempts ?? 0);
    if (row.state === S.SENT && attempts >= COMMAND_MAX_ATTEMPTS) {
      await applySystemTransition(tx, TerminalCommand, row, 'GiveUp', { values: { finishedAt: now }, now });
      continue;
    }
    await applySystemTransition(tx, TerminalCommand, row, 'Send', { values: { sentAt: now, attempts: attempts + 1 }, now });
    handed.push({
      id: row.id,
      kind: row.kind as TerminalCommandKind,
      payload: (row.payload ?? {}) as Record<string, unknown>,
      expiresAt: row.expiresAt!.toISOString(),
    });
  }
  return handed;
}

const ACK_VERBS = { delivered: 'Deliver', succeeded: 'Succeed', failed: 'Fail' } as const;
const ACK_STATES = { delivered: S.DELIVERED, succeeded: S.SUCCEEDED, failed: S.FAILED } as const;

/**
 * Records a device's acknowledgement. A command of another device is unknown (404). The same
 * acknowledgement sent again (a retry after a lost answer) changes nothing and is accepted; any
 * other move the command's state does not allow answers 409 and changes nothing.
 */
export async function acknowledgeCommand(tx: Executor, device: IntakeDevice, body: CommandAckBody, now: Date): Promise<void> {
  const [row] = await tx
    .select()
    .from(terminalCommands)
    .where(and(eq(terminalCommands.id, body.commandId), eq(terminalCommands.deviceId, device.id)))
    .for('update');
  if (!row) throw notFound(msg('error.recordNotFound', { family: TerminalCommand.label, id: body.commandId }));
  if (row.state === ACK_STATES[body.status]) return;
  const result = { resultCode: body.resultCode, resultMessage: body.message ?? null };
  const times = body.status === 'delivered' ? { deliveredAt: now } : { finishedAt: now };
  await applySystemTransition(tx, TerminalCommand, row, ACK_VERBS[body.status], { values: { ...result, ...times }, now });
  if (body.status === 'succeeded') for (const listener of successListeners) await listener(tx, { ...row, ...result }, now);
}

/** The remote-command side of the heartbeat and of CommandAck, installed at start (resources/families.ts). */
export const commandHandlers: CommandHandlers = { commandsFor, acknowledge: acknowledgeCommand };
