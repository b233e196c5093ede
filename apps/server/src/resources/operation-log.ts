/** The operation log names each entry's records and referenced rows as they are called today (engine/operation-log-labels.ts). */
import { OperationLog } from '@campus/contract';
import { defineFamilyModule } from './engine/modules.js';
import { operationLogLabels } from './engine/operation-log-labels.js';

export const operationLogModule = defineFamilyModule(OperationLog, {
  async afterRead(ctx, rows) {
    const labels = await operationLogLabels(ctx, rows);
    return rows.map((row, index) => ({ ...row, labels: labels[index] }));
  },
});
