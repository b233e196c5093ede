/**
 * Refund (refundManage): an application names a payment with something left to refund; the Refund and
 * Retry transitions check the money rules with the payment locked (finance/refunds.ts), then — once
 * their transaction has committed — send the refund to the provider and answer the settled state.
 */
import { Refund, type TransitionAnswer, REFUND_APPLIED } from '@campus/contract';
import { sql } from 'drizzle-orm';
import { prepareRefund, refundQueryJob, sendRefund } from '../finance/refunds.js';
import { applyRefundNotification } from '../finance/refund-notifications.js';
import { badRequest, msg } from '../platform/errors.js';
import { defineFamilyModule } from './engine/modules.js';
import type { EngineContext } from './engine/context.js';
import type { Executor } from '../db/client.js';
import { leftOnLine, leftOnLines, reserveOnLine } from '../mall/refunds.js';

/** After the transition committed: the provider call, then its answer applied (the row's newer state answered). */
async function sendAfterCommit(ctx: EngineContext, answer: TransitionAnswer): Promise<TransitionAnswer | void> {
  const { server } = ctx;
  return sendRefund(server.db, server.payments, answer.id, () => server.clock.now());
}

/** What is left to refund of each payment (amount − refunded), by payment id; unknown ids are left out. */
async function leftOfPayments(db: Executor, paymentIds: number[]): Promise<Map<number, number>> {
  const ids = [...new Set(paymentIds)];
  if (ids.length === 0) return new Map();
  const found = (await db.execute(
    sql`select id, amount - refunded_amount as "left" from payment_records where id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`,
  )) as unknown as { rows: { id: number; left: number }[] };
  return new Map(found.rows.map((row) => [Number(row.id), Number(row.left)]));
}

export const refundModule = defineFamilyModule(Refund, {
  pending: { badge: 'refundApplied', where: { state: REFUND_APPLIED } },
  recurringJobs: [refundQueryJob],
  seams: { notifications: { refund: applyRefundNotification } },
  /** The amount asked (the declaration's askedAmount): the amount sent, else all that is left of the payment. */
  async afterRead(ctx, rows) {
    if (ctx.probes.hideAmountColumns) return rows;
    const waiting = rows.filter((row) => row.refundAmount === null || row.refundAmount === undefined);
    const left = await leftOfPayments(ctx.db, waiting.map((row) => Number(row.paymentId)));
    const leftOfLines = await leftOnLines(ctx.db, waiting.flatMap((row) => (row.marketOrderLineId ? [Number(row.marketOrderLineId)] : [])));
    const askedOf = (row: (typeof rows)[number]) => {
      const ofPayment = left.get(Number(row.paymentId));
      const ofLine = row.marketOrderLineId ? leftOfLines.get(Number(row.marketOrderLineId)) : undefined;
      return ofLine === undefined ? ofPayment : Math.min(ofLine, ofPayment ?? ofLine);
    };
    return rows.map((row) => ({ ...row, askedAmount: row.refundAmount ?? askedOf(row) ?? null }));
  },

  /** A parent applies for a payment that still has something to refund. */
  async beforeWrite(ctx, { values }) {
    if (values.paymentId === undefined || values.paymentId === null) return values;
    const left = (await leftOfPayments(ctx.db, [Number(values.paymentId)])).get(Number(values.paymentId));
    if (left !== undefined && left <= 0) throw badRequest([{ path: 'paymentId', ...msg('refund.paymentFullyRefunded') }]);
    return values;
  },
  transitions: {
    /**
     * An application for a mall order's line (marketOrderLineId) asks for what is left on the line,
     * not on the whole payment, and its approval moves the line's refunded amount in this transaction,
     * never above what the line paid, as RefundLine does on mallOrderManage.
     */
    Refund: async (ctx, row, input) => {
      const lineId = row.marketOrderLineId === null || row.marketOrderLineId === undefined ? undefined : Number(row.marketOrderLineId);
      const asked = typeof input.refundAmount === 'number' ? input.refundAmount : lineId === undefined ? undefined : await leftOnLine(ctx.db, lineId);
      if (asked !== undefined && asked <= 0) throw badRequest([{ path: 'refundAmount', ...msg('mall.lineNothingLeft') }]);
      const prepared = await prepareRefund(ctx.db, ctx.server.payments, row as never, asked, ctx.clock.now());
      if (lineId !== undefined) await reserveOnLine(ctx.db, lineId, Number(prepared.refundAmount));
      return prepared;
    },
    Retry: async (ctx, row) => prepareRefund(ctx.db, ctx.server.payments, row as never, undefined, ctx.clock.now()),
  },
  afterTransitions: {
    Refund: sendAfterCommit,
    Retry: sendAfterCommit,
  },
});
