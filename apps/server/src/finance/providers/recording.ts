/**
 * Every provider call, whichever the provider, lands in the provider call log (PaymentProviderCall,
 * a tab of refundManage): what was asked, what came back, when, how long it took and how it ended.
 * The log is written outside any transaction of the caller, so a call is on record even when the
 * work around it rolls back. A provider that throws (a timeout, a broken connection) is answered as
 * `unknown`: nobody knows whether the provider acted, and only a later query can tell.
 */
import type { ProviderCallOutcome, ProviderOperation } from '@campus/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.js';
import { paymentProviderCalls } from '../../db/schema/resources.js';
import type { Clock } from '../../platform/clock.js';
import { platformEvent } from '../../platform/platform-log-sink.js';
import type { PayAnswer, PaymentProvider, PaymentQueryAnswer, RefundAnswer } from './types.js';

export interface ProviderCallRecord {
  provider: string;
  operation: ProviderOperation;
  reference: string;
  outcome: ProviderCallOutcome;
  message?: string;
  durationMs?: number;
  request?: unknown;
  response?: unknown;
}

/** Writes one row of the provider call log; a failure to write is logged, never thrown into the caller's flow. */
export async function recordProviderCall(db: Database, clock: Clock, log: FastifyBaseLogger, record: ProviderCallRecord): Promise<void> {
  try {
    await db.insert(paymentProviderCalls).values({
      createdAt: clock.now(),
      provider: record.provider,
      operation: record.operation,
      reference: record.reference.slice(0, 64),
      outcome: record.outcome,
      message: record.message?.slice(0, 500) ?? null,
      durationMs: record.durationMs ?? null,
      request: record.request ?? null,
      response: record.response ?? null,
    });
  } catch (error) {
    log.error({ err: error, reference: record.reference }, 'could not record a payment provider call');
  }
}

const payOutcome = (answer: PayAnswer | PaymentQueryAnswer): ProviderCallOutcome =>
  answer.outcome === 'paid' || answer.outcome === 'closed' ? 'ok' : answer.outcome === 'pending' ? 'pending' : answer.outcome;
const refundOutcome = (answer: RefundAnswer): ProviderCallOutcome => (answer.outcome === 'succeeded' ? 'ok' : answer.outcome === 'pending' ? 'pending' : answer.outcome);

/** Wraps a provider so each call is recorded (module doc); notifications are recorded by the endpoint. */
export function recordingProvider(inner: PaymentProvider, db: Database, clock: Clock, log: FastifyBaseLogger): PaymentProvider {
  async function recorded<A extends { outcome: string; message?: string }>(
    operation: ProviderOperation,
    reference: string,
    request: unknown,
    call: () => Promise<A>,
    outcomeOf: (answer: A) => ProviderCallOutcome,
  ): Promise<A> {
    const started = performance.now();
    let answer: A;
    try {
      answer = await call();
    } catch (error) {
      const message = error instanceof Error ? `${error.name}: ${error.message}` : 'no answer';
      answer = { outcome: 'unknown', message } as A;
    }
    const durationMs = Math.round(performance.now() - started);
    const outcome = outcomeOf(answer);
    if (outcome === 'failed' || outcome === 'unknown') {
      log.warn(platformEvent('providerCall', { provider: inner.name, operation, reference, outcome }), `${inner.name} ${operation} ${reference}: ${outcome}${answer.message ? ` (${answer.message})` : ''}`);
    }
    await recordProviderCall(db, clock, log, { provider: inner.name, operation, reference, outcome, message: answer.message, durationMs, request, response: answer });
    return answer;
  }
  return {
    name: inner.name,
    pay: (request) => recorded('pay', request.outTradeNo, request, () => inner.pay(request), payOutcome),
    query: (outTradeNo) => recorded('query', outTradeNo, { outTradeNo }, () => inner.query(outTradeNo), payOutcome),
    refund: (request) => recorded('refund', request.outRefundNo, request, () => inner.refund(request), refundOutcome),
    queryRefund: (outRefundNo) => recorded('refundQuery', outRefundNo, { outRefundNo }, () => inner.queryRefund(outRefundNo), refundOutcome),
    verifyNotification: (incoming) => inner.verifyNotification(incoming),
  };
}
