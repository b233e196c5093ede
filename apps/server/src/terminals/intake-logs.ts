/** Terminal log lines of a batch, stored in the call's transaction in one statement; a retried line is skipped. */
import type { IntakeLog } from '@campus/contract';
import type { Transaction } from '../db/client.js';
import { terminalLogs } from '../db/schema/index.js';
import { columnOf } from '../resources/engine/query.js';

/** Inserts the lines not stored before; answers how many were new. */
export async function insertLogs(tx: Transaction, device: { deviceId: number; schoolId: number }, logs: readonly IntakeLog[]): Promise<number> {
  const stored = await tx
    .insert(terminalLogs)
    .values(logs.map((line) => ({ ...device, logSerial: line.serial, level: line.level, module: line.module, message: line.message, loggedAt: new Date(line.loggedAt) })))
    .onConflictDoNothing()
    .returning({ id: columnOf(terminalLogs, 'id') });
  return stored.length;
}
