/**
 * The default provider (demo and tests): payments settle at once and refunds are made at once, kept
 * in demo_provider_refunds by out_refund_no. Tests steer it — an answer lost ("unknown"), a timeout,
 * a refusal with a message, a refund still processing — to drive the refund flow through each path.
 */
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { demoProviderRefunds } from '../../db/schema/payment-providers.js';
import {
  NotificationRefused,
  type PayAnswer,
  type PayRequest,
  type PaymentProvider,
  type PaymentQueryAnswer,
  type ProviderNotification,
  type RefundAnswer,
  type RefundRequest,
} from './types.js';

/**
 * How the next calls of one operation behave. `unknown` and `timeout` make the refund all the same
 * and lose the answer (what a network failure after the provider acted looks like); `pending` makes
 * it and says it is processing; `failed` refuses without making it.
 */
export type DemoBehaviour = { outcome: 'unknown' } | { outcome: 'timeout' } | { outcome: 'pending' } | { outcome: 'failed'; message: string };
export type DemoOperation = 'pay' | 'query' | 'refund' | 'refundQuery';

export class DemoTimeoutError extends Error {
  override name = 'TimeoutError';
}

export class DemoPaymentProvider implements PaymentProvider {
  readonly name = 'demo' as const;
  private readonly steering = new Map<DemoOperation, { behaviour: DemoBehaviour; times: number }>();

  constructor(private readonly db: Database) {}

  /** Makes the next `times` calls of `operation` (every call when omitted) behave so; `undefined` clears it. */
  steer(operation: DemoOperation, behaviour: DemoBehaviour | undefined, times = Number.POSITIVE_INFINITY): void {
    if (behaviour) this.steering.set(operation, { behaviour, times });
    else this.steering.delete(operation);
  }

  private behaviourOf(operation: DemoOperation): DemoBehaviour | undefined {
    const steered = this.steering.get(operation);
    if (!steered) return undefined;
    steered.times -= 1;
    if (steered.times <= 0) this.steering.delete(operation);
    return steered.behaviour;
  }

  async pay(request: PayRequest): Promise<PayAnswer> {
    const behaviour = this.behaviourOf('pay');
    if (behaviour?.outcome === 'timeout') throw new DemoTimeoutError('the demo provider did not answer');
    if (behaviour?.outcome === 'failed') return { outcome: 'failed', message: behaviour.message };
    if (behaviour?.outcome === 'unknown') return { outcome: 'unknown' };
    return { outcome: 'paid', providerTradeNo: `DEMO-${request.outTradeNo}` };
  }

  async query(outTradeNo: string): Promise<PaymentQueryAnswer> {
    const behaviour = this.behaviourOf('query');
    if (behaviour?.outcome === 'timeout') throw new DemoTimeoutError('the demo provider did not answer');
    if (behaviour?.outcome === 'failed') return { outcome: 'failed', message: behaviour.message };
    if (behaviour?.outcome === 'unknown') return { outcome: 'unknown' };
    return { outcome: 'paid', providerTradeNo: `DEMO-${outTradeNo}` };
  }

  /**
   * Makes the refund unless one under this number exists (then it answers that one), refusing a sum
   * beyond the payment. One statement, so two calls with the same number cannot both insert.
   */
  private async makeRefund(request: RefundRequest): Promise<RefundAnswer> {
    const made = (await this.db.execute(sql`
      insert into demo_provider_refunds (out_refund_no, out_trade_no, amount)
      select ${request.outRefundNo}, ${request.outTradeNo}, ${request.refundAmount}
      where (select coalesce(sum(amount), 0) from demo_provider_refunds where out_trade_no = ${request.outTradeNo}) + ${request.refundAmount} <= ${request.totalAmount}
      on conflict (out_refund_no) do nothing
      returning out_refund_no`)) as unknown as { rows: { out_refund_no: string }[] };
    if (made.rows.length > 0) return { outcome: 'succeeded', providerRefundNo: `DEMO-R-${request.outRefundNo}` };
    const [existing] = await this.db.select().from(demoProviderRefunds).where(eq(demoProviderRefunds.outRefundNo, request.outRefundNo));
    if (existing) return { outcome: 'succeeded', providerRefundNo: `DEMO-R-${request.outRefundNo}` };
    return { outcome: 'failed', message: 'NOT_ENOUGH: the refunds would exceed the payment' };
  }

  async refund(request: RefundRequest): Promise<RefundAnswer> {
    const behaviour = this.behaviourOf('refund');
    if (behaviour?.outcome === 'failed') return { outcome: 'failed', message: behaviour.message };
    const made = await this.makeRefund(request);
    if (behaviour?.outcome === 'timeout') throw new DemoTimeoutError('the demo provider did not answer');
    if (behaviour?.outcome === 'unknown') return { outcome: 'unknown' };
    if (behaviour?.outcome === 'pending' && made.outcome === 'succeeded') return { ...made, outcome: 'pending' };
    return made;
  }

  async queryRefund(outRefundNo: string): Promise<RefundAnswer> {
    const behaviour = this.behaviourOf('refundQuery');
    if (behaviour?.outcome === 'timeout') throw new DemoTimeoutError('the demo provider did not answer');
    if (behaviour?.outcome === 'unknown') return { outcome: 'unknown' };
    if (behaviour?.outcome === 'pending') return { outcome: 'pending' };
    if (behaviour?.outcome === 'failed') return { outcome: 'failed', message: behaviour.message };
    const [existing] = await this.db.select().from(demoProviderRefunds).where(eq(demoProviderRefunds.outRefundNo, outRefundNo));
    return existing ? { outcome: 'succeeded', providerRefundNo: `DEMO-R-${outRefundNo}` } : { outcome: 'failed', message: 'RESOURCE_NOT_EXISTS: no refund under this number' };
  }

  /** The demo settles at once and so never notifies: anything posted to it is refused. */
  async verifyNotification(): Promise<ProviderNotification> {
    throw new NotificationRefused('the demo provider sends no notifications');
  }
}
