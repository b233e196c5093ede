/**
 * A demo third-party developer (developManage) that may read the first two demo schools, added through
 * the engine as an operator would (its app id is generated on Add). Its secret and callback address
 * are left unset: issuing a secret shows it once, to whoever tries the Open API or the callbacks.
 */
import { Developer } from '@campus/contract';
import { addRow } from '../resources/engine/write.js';
import type { Transaction } from '../db/client.js';
import { operatorContext } from './demo-operator.js';

export async function seedDemoDeveloper(tx: Transaction, adminId: number, schoolIds: readonly number[], now: Date): Promise<void> {
  const contextFor = await operatorContext(tx, adminId, { now: () => now });
  await addRow(contextFor(Developer), { name: '家校互联开放平台（演示）', enabled: true, schoolIds: [...schoolIds] });
}
