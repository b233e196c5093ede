/**
 * The messenger over Redis pub/sub (REDIS_URL): one subscribing connection and one publishing
 * connection per instance. ioredis reconnects and subscribes again by itself. Beside a PostgreSQL
 * database it also listens there: the database's own notices (its triggers', migration 0053) are
 * sent by NOTIFY, never through Redis, and callers kept in memory are dropped on them.
 */
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { LocalSubscribers, decodeMessage, encodeMessage, type Messenger, type MessengerLog } from './messenger.js';
import { listenToDatabase } from './messenger-postgres.js';

/**
 * The channel of one deployment: named after its database, so two deployments (or two test
 * databases) sharing a Redis never hear each other, as NOTIFY never crosses databases.
 */
export function redisChannelOf(databaseIdentity: string): string {
  return `campus:live:${createHash('sha256').update(databaseIdentity).digest('hex').slice(0, 16)}`;
}

export function createRedisMessenger(redisUrl: string, channel: string, log: MessengerLog, postgresUrl?: string): Messenger {
  const subscribers = new LocalSubscribers(log);
  const database = postgresUrl ? listenToDatabase(postgresUrl, subscribers, log) : undefined;
  // Commands wait for the connection instead of failing while Redis restarts; a publish lost then is a hint lost.
  const options = { maxRetriesPerRequest: null, lazyConnect: false } as const;
  const publisher = new Redis(redisUrl, options);
  const subscriber = new Redis(redisUrl, options);
  publisher.on('error', (error: unknown) => log.warn({ err: error }, 'messenger publisher (redis) error'));
  subscriber.on('error', (error: unknown) => log.warn({ err: error }, 'messenger subscriber (redis) error'));
  subscriber.on('message', (messageChannel: string, text: string) => {
    if (messageChannel !== channel) return;
    const message = decodeMessage(text);
    if (message) subscribers.deliver(message);
  });
  const isSubscribed = subscriber.subscribe(channel).then(() => undefined);
  isSubscribed.catch((error: unknown) => log.warn({ err: error }, 'messenger could not subscribe (redis)'));

  return {
    transport: 'redis',
    publish(topic, body) {
      const text = encodeMessage(topic, body);
      if (text === null) return log.warn({ topic }, 'message too large, not sent');
      publisher.publish(channel, text).catch((error: unknown) => log.warn({ err: error, topic }, 'message not sent (redis)'));
    },
    subscribe: (topic, listener) => subscribers.subscribe(topic, listener),
    ...(database ? { listeningEpoch: database.epoch } : {}),
    ready: async () => {
      await Promise.all([isSubscribed, database?.ready()]);
    },
    async close() {
      subscriber.disconnect();
      publisher.disconnect();
      await database?.close();
    },
  };
}
