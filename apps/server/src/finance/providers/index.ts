/**
 * The payment providers of one app: the demo provider always (demo data, tests), WeChat Pay when its
 * environment is complete. `active` takes new payments (PAYMENT_PROVIDER); a refund goes to the
 * provider its payment was made with. Each is wrapped so its calls land in the provider call log.
 */
import type { PaymentProviderName } from '@campus/contract';
import type { FastifyBaseLogger } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../../db/client.js';
import type { Env } from '../../env.js';
import type { Clock } from '../../platform/clock.js';
import { DemoPaymentProvider } from './demo.js';
import { recordingProvider } from './recording.js';
import type { PaymentProvider } from './types.js';
import { WechatPayProvider, type HttpFetch } from './wechatpay.js';

export * from './types.js';
export { DemoPaymentProvider, type DemoBehaviour } from './demo.js';

export interface PaymentProviders {
  /** The provider new payments use. */
  active: PaymentProvider;
  /** A configured provider by name (recording its calls), or none. */
  byName(name: string): PaymentProvider | undefined;
  /** The unwrapped demo provider, which tests steer. */
  demo: DemoPaymentProvider;
}

declare module 'fastify' {
  interface FastifyInstance {
    payments: PaymentProviders;
  }
}

export interface PaymentProviderOptions {
  /** The HTTP client WeChat Pay calls go through; tests inject a replay of recorded exchanges. */
  fetch?: HttpFetch;
  /** Fixed nonces for reproducible signatures (tests). */
  nonce?: () => string;
}

export function createPaymentProviders(env: Env, db: Database, clock: Clock, log: FastifyBaseLogger, options: PaymentProviderOptions = {}): PaymentProviders {
  const demo = new DemoPaymentProvider(db);
  const providers = new Map<PaymentProviderName, PaymentProvider>([['demo', recordingProvider(demo, db, clock, log)]]);
  if (env.wechatPay) {
    const wechat = new WechatPayProvider(env.wechatPay, options.fetch ?? (fetch as HttpFetch), clock, options.nonce);
    providers.set('wechatpay', recordingProvider(wechat, db, clock, log));
  }
  const active = providers.get(env.PAYMENT_PROVIDER) ?? providers.get('demo')!;
  return { active, demo, byName: (name) => providers.get(name as PaymentProviderName) };
}

/** Makes the payment providers reachable as app.payments; finance sits above the platform, so they are not part of its context. */
export const paymentsPlugin = fp<{ payments: PaymentProviders }>(
  async (app, { payments }) => {
    app.decorate('payments', payments);
  },
  { name: 'payments' },
);
