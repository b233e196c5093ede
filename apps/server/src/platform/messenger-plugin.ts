/** Makes the instance's messenger reachable as `app.messenger`, chosen from the environment, and closes it with the app. */
import fp from 'fastify-plugin';
import type { DatabaseKind } from '../db/client.js';
import type { Env } from '../env.js';
import { createMemoryMessenger, type Messenger, type MessengerLog } from './messenger.js';
import { createPostgresMessenger } from './messenger-postgres.js';
import { createRedisMessenger, redisChannelOf } from './messenger-redis.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Messages to every instance (platform/messenger.ts). */
    messenger: Messenger;
  }
}

/** Redis when REDIS_URL is set, else LISTEN/NOTIFY on PostgreSQL, else (PGlite, one process) in process. */
export function createMessenger(env: Pick<Env, 'REDIS_URL' | 'DATABASE_URL'>, kind: DatabaseKind, log: MessengerLog): Messenger {
  if (env.REDIS_URL) return createRedisMessenger(env.REDIS_URL, redisChannelOf(env.DATABASE_URL ?? 'embedded'), log, kind === 'postgres' ? env.DATABASE_URL : undefined);
  if (kind === 'postgres' && env.DATABASE_URL) return createPostgresMessenger(env.DATABASE_URL, log);
  return createMemoryMessenger(log);
}

export interface MessengerPluginOptions {
  /** Defaults to createMessenger's choice; the app closes it either way. */
  messenger?: Messenger;
}

export const messengerPlugin = fp<MessengerPluginOptions>(
  async (app, options) => {
    const messenger = options.messenger ?? createMessenger(app.env, app.dbKind, app.log);
    app.decorate('messenger', messenger);
    app.addHook('onClose', () => messenger.close());
  },
  { name: 'messenger', dependencies: ['context'] },
);
