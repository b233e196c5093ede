import fp from 'fastify-plugin';
import type { Database, DatabaseKind } from '../db/client.js';
import type { Env } from '../env.js';
import type { Clock } from './clock.js';
import type { SmsProvider } from './sms.js';

import type { PlatformLogSink } from './platform-log-sink.js';

declare module 'fastify' {
  interface FastifyInstance {
    db: Database;
    dbKind: DatabaseKind;
    env: Env;
    clock: Clock;
    sms: SmsProvider;
    /** The platform log's queue (platLog): flush() writes what the logger queued. */
    platformLog: PlatformLogSink;
  }
  interface FastifyContextConfig {
    /** The route answers without a session (login, captcha, password reset, health, docs). */
    public?: boolean;
    /** A parent app call (`/api/App/*`): a parent's session, never a console one (app-channel/guard.ts). */
    parentChannel?: boolean;
  }
}

export interface AppContext {
  db: Database;
  dbKind: DatabaseKind;
  env: Env;
  clock: Clock;
  sms: SmsProvider;
}

/** Makes the database, environment, clock and SMS provider reachable as app.db, app.env, ... (the payment providers: finance/providers). */
export const contextPlugin = fp<AppContext>(
  async (app, context) => {
    app.decorate('db', context.db);
    app.decorate('dbKind', context.dbKind);
    app.decorate('env', context.env);
    app.decorate('clock', context.clock);
    app.decorate('sms', context.sms);
  },
  { name: 'context' },
);
