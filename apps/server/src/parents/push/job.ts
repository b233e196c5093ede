import type { FastifyInstance } from 'fastify';
import type { Env } from '../../env.js';
import type { RecurringJob } from '../../platform/recurring-jobs.js';
import { jpushProvider } from './jpush.js';
import { outboxPushProvider, type PushProvider } from './provider.js';
import { deliverDuePushes } from './worker.js';

/** JPush when both its keys are set, else the outbox. */
export function pushProviderOf(env: Pick<Env, 'JPUSH_APP_KEY' | 'JPUSH_MASTER_SECRET' | 'JPUSH_ENDPOINT' | 'NODE_ENV'>): PushProvider {
  if (env.JPUSH_APP_KEY && env.JPUSH_MASTER_SECRET) {
    return jpushProvider({ appKey: env.JPUSH_APP_KEY, masterSecret: env.JPUSH_MASTER_SECRET, endpoint: env.JPUSH_ENDPOINT, apnsProduction: env.NODE_ENV === 'production' });
  }
  return outboxPushProvider;
}

/** Looks for due pushes every 2 seconds on each instance (started with the app, stopped when it closes). */
export const parentPushJob: RecurringJob = {
  name: 'parent-pushes',
  everyMs: 2_000,
  run: (app: FastifyInstance) => deliverDuePushes({ db: app.db, now: () => app.clock.now(), provider: pushProviderOf(app.env) }),
};
