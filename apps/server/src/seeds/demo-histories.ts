/**
 * The state history of demo rows that the seed puts straight into a later state: a done ticket was
 * assigned to a technician, started and completed; a refund was refunded, rejected or closed by an
 * operator (and settled by the provider). Without it their drawers said "no history" and a done
 * ticket had no handler — demo rows should read like rows the product's own flows made.
 */
import {
  REFUND_APPLIED,
  REFUND_CLOSED,
  REFUND_FAILED,
  REFUND_REFUNDING,
  REFUND_REJECTED,
  REFUND_SUCCEEDED,
} from '@campus/contract';
import { eq } from 'drizzle-orm';
import type { Transaction } from '../db/client.js';
import { maintenanceTickets, refunds, stateHistory } from '../db/schema/index.js';

const HOUR_MS = 3_600_000;

interface Step {
  verb: string;
  from: number | null;
  to: number;
  /** null: the platform itself (a provider's answer). */
  userId: number | null;
  remark?: string;
  hoursAgo: number;
}

/** A refund's steps from applied to the state it was seeded in. */
function refundSteps(state: number, operatorId: number): Step[] {
  const sent: Step = { verb: 'Refund', from: REFUND_APPLIED, to: REFUND_REFUNDING, userId: operatorId, hoursAgo: 20 };
  switch (state) {
    case REFUND_REFUNDING:
      return [sent];
    case REFUND_SUCCEEDED:
      return [sent, { verb: 'Succeed', from: REFUND_REFUNDING, to: REFUND_SUCCEEDED, userId: null, hoursAgo: 19 }];
    case REFUND_FAILED:
      return [sent, { verb: 'Fail', from: REFUND_REFUNDING, to: REFUND_FAILED, userId: null, hoursAgo: 19 }];
    case REFUND_REJECTED:
      return [{ verb: 'Reject', from: REFUND_APPLIED, to: REFUND_REJECTED, userId: operatorId, remark: '已超过 30 天退款期限，不予退款', hoursAgo: 30 }];
    case REFUND_CLOSED:
      return [{ verb: 'Close', from: REFUND_APPLIED, to: REFUND_CLOSED, userId: operatorId, remark: '家长来电撤回退款申请', hoursAgo: 26 }];
    default:
      return [];
  }
}

export async function seedDemoHistories(tx: Transaction, people: { operatorId: number; technicianIds: number[] }, now: Date): Promise<void> {
  const at = (hoursAgo: number) => new Date(now.getTime() - hoursAgo * HOUR_MS);
  const rows: (typeof stateHistory.$inferInsert)[] = [];
  const add = (family: string, rowId: number, steps: Step[]) => {
    for (const step of steps) {
      rows.push({ family, rowId, fromState: step.from === null ? null : String(step.from), toState: String(step.to), verb: step.verb, remark: step.remark ?? null, userId: step.userId, createdAt: at(step.hoursAgo) });
    }
  };

  const done = await tx.select({ id: maintenanceTickets.id }).from(maintenanceTickets).where(eq(maintenanceTickets.state, 4)).orderBy(maintenanceTickets.id);
  for (const [position, ticket] of done.entries()) {
    const technicianId = people.technicianIds[position % people.technicianIds.length]!;
    await tx.update(maintenanceTickets).set({ assigneeId: technicianId }).where(eq(maintenanceTickets.id, ticket.id));
    add('MaintenanceTicket', ticket.id, [
      { verb: 'Assign', from: 1, to: 2, userId: people.operatorId, remark: '请今天上门处理', hoursAgo: 48 },
      { verb: 'Start', from: 2, to: 3, userId: technicianId, hoursAgo: 44 },
      { verb: 'Complete', from: 3, to: 4, userId: technicianId, remark: '已现场测试，闸机恢复联网', hoursAgo: 40 },
    ]);
  }

  for (const refund of await tx.select({ id: refunds.id, state: refunds.state }).from(refunds).orderBy(refunds.id)) {
    add('Refund', refund.id, refundSteps(Number(refund.state), people.operatorId));
  }
  if (rows.length > 0) await tx.insert(stateHistory).values(rows);
}
