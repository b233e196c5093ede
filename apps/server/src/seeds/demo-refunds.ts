/**
 * Demo refunds: a few of the demo payments with a refund in each state, so refundManage, its badge
 * and the summaries show every case. Succeeded ones go through the ledger reversal like real ones
 * (and into the demo provider's books), so the nightly ledger check holds on demo data too.
 */
import { REFUND_APPLIED, REFUND_CLOSED, REFUND_FAILED, REFUND_REFUNDING, REFUND_REJECTED, REFUND_SUCCEEDED } from '@campus/contract';
import { sql } from 'drizzle-orm';
import { postRefundReversal } from '../finance/payments.js';
import { refundNumberOf } from '../finance/refunds.js';
import type { Transaction } from '../db/client.js';
import { demoProviderRefunds, refunds } from '../db/schema/index.js';

/** One refund per entry, on successive demo payments: [state, share of the payment refunded (when sent), reason]. */
const DEMO_REFUNDS: [number, number, string][] = [
  [REFUND_APPLIED, 0, '孩子转学，申请退款'],
  [REFUND_APPLIED, 0, '重复购买'],
  [REFUND_APPLIED, 0, '服务未开通'],
  [REFUND_REFUNDING, 1, '家长申请全额退款'],
  [REFUND_SUCCEEDED, 0.5, '退还未使用的半年服务'],
  [REFUND_SUCCEEDED, 1, '误购，全额退款'],
  [REFUND_FAILED, 1, '家长申请退款'],
  [REFUND_REJECTED, 0, '已超过退款期限'],
  [REFUND_CLOSED, 0, '家长撤回申请'],
];

export async function seedDemoRefunds(tx: Transaction, now: Date): Promise<void> {
  const found = (await tx.execute(sql`
    select id, school_id as "schoolId", amount, out_trade_no as "outTradeNo" from payment_records
    where refunded_amount = 0 order by paid_at desc, id desc limit ${DEMO_REFUNDS.length}`)) as unknown as {
    rows: { id: number; schoolId: number; amount: number; outTradeNo: string }[];
  };
  for (const [index, payment] of found.rows.entries()) {
    const [state, share, reason] = DEMO_REFUNDS[index]!;
    const isSent = share > 0;
    const amount = isSent ? Math.round(Number(payment.amount) * share) : null;
    const [refund] = await tx
      .insert(refunds)
      .values({ paymentId: Number(payment.id), schoolId: Number(payment.schoolId), reason, state })
      .returning({ id: refunds.id });
    if (!isSent) continue;
    const outRefundNo = refundNumberOf(refund!.id, now);
    await tx
      .update(refunds)
      .set({
        refundAmount: amount,
        outRefundNo,
        provider: 'demo',
        providerMessage: state === REFUND_FAILED ? 'NOT_ENOUGH: 商户余额不足（演示）' : null,
        nextQueryAt: state === REFUND_REFUNDING ? now : null,
        queryAttempts: 0,
        refundedAt: state === REFUND_SUCCEEDED ? now : null,
      })
      .where(sql`${refunds.id} = ${refund!.id}`);
    // The one in flight is made at the provider already: the query job settles it a minute after start.
    if (state === REFUND_SUCCEEDED || state === REFUND_REFUNDING) await tx.insert(demoProviderRefunds).values({ outRefundNo, outTradeNo: payment.outTradeNo, amount: amount! });
    if (state === REFUND_SUCCEEDED) {
      await postRefundReversal(tx, { id: Number(payment.id) }, refund!.id, amount!, now);
    }
  }
}
