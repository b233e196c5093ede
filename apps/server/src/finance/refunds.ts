/**
 * The money rules of refunds. The Refund transition checks them in its transaction with the payment
 * row locked (`FOR UPDATE`), so concurrent refunds of one payment run one after another: the sum of
 * succeeded and in-flight refunds never exceeds the payment, at most MAX_REFUNDS_PER_PAYMENT ever
 * leave, and only one is in flight at a time. The provider is called after that transaction
 * commits (no lock is held across the network), under the refund's own number, and its answer is
 * applied in a second transaction: success posts the ledger reversal and the rollups with the new
 * state; a failure keeps the provider's message; no answer leaves it refunding for the query job.
 */
import {
  MAX_REFUNDS_PER_PAYMENT,
  REFUND_REFUNDING,
  REFUND_SUCCEEDED,
  Refund,
  formatBusinessDate,
  type TransitionAnswer,
} from '@campus/contract';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Database, Executor } from '../db/client.js';
import { refunds } from '../db/schema/resources.js';
import { badRequest, conflict, msg } from '../platform/errors.js';
import type { RecurringJob } from '../platform/recurring-jobs.js';
import { applySystemTransition } from '../resources/engine/workflow.js';
import { lockPayment, postRefundReversal, type PaymentRow } from './payments.js';
import type { PaymentProvider, PaymentProviders, RefundAnswer } from './providers/index.js';

type RefundRow = typeof refunds.$inferSelect;

const yuan = (fen: number) => (fen / 100).toFixed(2);

/** The provider a payment is refunded through: WeChat payments by WeChat Pay when configured; the demo provider otherwise. */
export function providerOfPayment(payments: PaymentProviders, channel: string): PaymentProvider {
  return (channel === 'wechat' ? payments.byName('wechatpay') : undefined) ?? payments.byName('demo')!;
}

/** `RF` + the day (China time) + the refund's id: unique without a counter, and fixed for every retry. */
export function refundNumberOf(refundId: number, now: Date): string {
  return `RF${formatBusinessDate(now).replace(/-/g, '')}${String(refundId).padStart(8, '0')}`;
}

/** What the other refunds of the payment hold: in flight, committed (succeeded + in flight), ever sent. */
async function otherRefundsOf(tx: Executor, paymentId: number, refundId: number) {
  const [row] = await tx
    .select({
      inFlight: sql<number>`count(*) filter (where ${refunds.state} = ${REFUND_REFUNDING})::int`,
      committed: sql<number>`coalesce(sum(${refunds.refundAmount}) filter (where ${refunds.state} in (${REFUND_REFUNDING}, ${REFUND_SUCCEEDED})), 0)::int`,
      sent: sql<number>`count(*) filter (where ${refunds.outRefundNo} is not null)::int`,
    })
    .from(refunds)
    .where(and(eq(refunds.paymentId, paymentId), ne(refunds.id, refundId)));
  return { inFlight: Number(row?.inFlight ?? 0), committed: Number(row?.committed ?? 0), sent: Number(row?.sent ?? 0) };
}

/**
 * The Refund and Retry transitions' checks (module doc), in the transition's transaction with the
 * refund row locked; answers the columns the refund leaves with. `requested` undefined = all that
 * is left (a Retry sends the amount it was given before).
 */
export async function prepareRefund(
  tx: Executor,
  payments: PaymentProviders,
  refund: Pick<RefundRow, 'id' | 'paymentId' | 'outRefundNo' | 'refundAmount'>,
  requested: number | undefined,
  now: Date,
): Promise<Partial<RefundRow>> {
  const payment: PaymentRow = await lockPayment(tx, refund.paymentId);
  const others = await otherRefundsOf(tx, payment.id, refund.id);
  if (others.inFlight > 0) throw conflict(msg('refund.oneInFlight'));
  // Counted from the refunds themselves and from the payment: whichever holds more wins.
  const refundable = payment.amount - Math.max(others.committed, payment.refundedAmount);
  const amount = requested ?? (refund.outRefundNo ? Number(refund.refundAmount) : refundable);
  if (refundable <= 0) throw badRequest([{ path: 'refundAmount', ...msg('refund.nothingLeft') }]);
  if (amount > refundable) throw badRequest([{ path: 'refundAmount', ...msg('refund.exceedsPayment', { refundable: yuan(refundable) }) }]);
  if (!refund.outRefundNo && others.sent >= MAX_REFUNDS_PER_PAYMENT) {
    throw badRequest([{ path: 'refundAmount', ...msg('refund.tooManyRefunds', { max: MAX_REFUNDS_PER_PAYMENT }) }]);
  }
  return {
    refundAmount: amount,
    outRefundNo: refund.outRefundNo ?? refundNumberOf(refund.id, now),
    provider: providerOfPayment(payments, payment.channel).name,
    providerMessage: null,
    nextQueryAt: new Date(now.getTime() + queryDelayMs(0)),
    queryAttempts: 0,
  };
}

/** Waits between queries of a refund in flight: 1, 2, 4 … minutes, at most an hour. */
export function queryDelayMs(attempts: number): number {
  return Math.min(60, 2 ** Math.min(attempts, 6)) * 60_000;
}

/**
 * Applies a provider's answer to a refund in flight, in the caller's transaction: locks the refund
 * and does nothing unless it is still refunding (the job, a notification and the operator's own call
 * may all answer; the first one settles it). Answers the refund's new version and state.
 */
export async function settleRefundIn(tx: Executor, where: { id: number } | { outRefundNo: string }, answer: RefundAnswer, now: Date): Promise<TransitionAnswer | undefined> {
  const condition = 'id' in where ? eq(refunds.id, where.id) : eq(refunds.outRefundNo, where.outRefundNo);
  const [refund] = await tx.select().from(refunds).where(condition).for('update');
  if (!refund || refund.state !== REFUND_REFUNDING) return undefined;
  if (answer.outcome === 'succeeded') {
    // The reversal and the rollups move with the state, or not at all.
    await postRefundReversal(tx, { id: refund.paymentId }, refund.id, Number(refund.refundAmount), now);
    await applySystemTransition(tx, Refund, refund, 'Succeed', {
      values: { providerRefundNo: answer.providerRefundNo ?? null, providerMessage: null, refundedAt: now, nextQueryAt: null },
      now,
    });
  } else if (answer.outcome === 'failed') {
    await applySystemTransition(tx, Refund, refund, 'Fail', { values: { providerMessage: answer.message ?? null, nextQueryAt: null }, remark: answer.message ?? null, now });
  } else {
    const attempts = Number(refund.queryAttempts ?? 0);
    await tx
      .update(refunds)
      .set({ queryAttempts: attempts + 1, nextQueryAt: new Date(now.getTime() + queryDelayMs(attempts)), providerMessage: answer.message ?? null, updatedAt: now })
      .where(eq(refunds.id, refund.id));
  }
  const [after] = await tx.select({ version: refunds.version, state: refunds.state }).from(refunds).where(eq(refunds.id, refund.id));
  return { id: refund.id, version: Number(after!.version), state: Number(after!.state) };
}

/** Sends a refund in flight to its provider under its refund number and applies the answer. */
export async function sendRefund(db: Database, payments: PaymentProviders, refundId: number, now: () => Date): Promise<TransitionAnswer | undefined> {
  const [refund] = await db.select().from(refunds).where(eq(refunds.id, refundId));
  if (!refund || refund.state !== REFUND_REFUNDING || !refund.outRefundNo) return undefined;
  const payment = await lockPayment(db, refund.paymentId);
  const provider = payments.byName(refund.provider ?? 'demo') ?? providerOfPayment(payments, payment.channel);
  const answer = await provider.refund({
    outTradeNo: payment.outTradeNo,
    outRefundNo: refund.outRefundNo,
    refundAmount: Number(refund.refundAmount),
    totalAmount: payment.amount,
    reason: refund.reason ?? undefined,
  });
  return db.transaction((tx) => settleRefundIn(tx, { id: refundId }, answer, now()));
}

/** Refunds the job asks about at once: each is a provider call, so a run stays short. */
const QUERY_BATCH = 20;
/** How long a claimed refund is left to the instance that claimed it before another may ask again. */
const CLAIM_MS = 2 * 60_000;

/**
 * The refund-query job: claims refunds in flight whose next query is due — `FOR UPDATE SKIP
 * LOCKED`, so instances running it at once take different refunds — moves their next query past the
 * claim, then asks each provider and applies the answer. Answers how many it settled.
 */
export async function queryRefundsInFlight(db: Database, payments: PaymentProviders, now: () => Date, log: FastifyBaseLogger): Promise<number> {
  const at = now();
  const claimed = (await db.execute(sql`
    update refunds set next_query_at = ${new Date(at.getTime() + CLAIM_MS).toISOString()}::timestamptz
    where id in (
      select id from refunds
      where state = ${REFUND_REFUNDING} and next_query_at <= ${at.toISOString()}::timestamptz
      order by next_query_at
      limit ${QUERY_BATCH}
      for update skip locked)
    returning id, out_refund_no as "outRefundNo", provider`)) as unknown as { rows: { id: number; outRefundNo: string | null; provider: string | null }[] };
  let settled = 0;
  for (const refund of claimed.rows) {
    if (!refund.outRefundNo) continue;
    try {
      const provider = payments.byName(refund.provider ?? 'demo') ?? payments.byName('demo')!;
      const answer = await provider.queryRefund(refund.outRefundNo);
      const result = await db.transaction((tx) => settleRefundIn(tx, { id: Number(refund.id) }, answer, now()));
      if (result && result.state !== REFUND_REFUNDING) settled += 1;
    } catch (error) {
      log.error({ err: error, refundId: refund.id }, 'refund query failed');
    }
  }
  return settled;
}

/** Asks the providers about refunds in flight every minute (finance/refunds.ts, queryRefundsInFlight). */
export const refundQueryJob: RecurringJob = {
  name: 'refund-query',
  everyMs: 60_000,
  run: (app: FastifyInstance) => queryRefundsInFlight(app.db, app.payments, () => app.clock.now(), app.log),
};
