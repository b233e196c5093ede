/**
 * The messenger over PostgreSQL LISTEN/NOTIFY: one dedicated connection per instance listens on one
 * channel; publishing is `pg_notify` on the pool. A notification reaches every listening session of
 * the same database once its transaction commits (a publish outside any transaction: at once).
 */
import pg from 'pg';
import { LocalSubscribers, decodeMessage, encodeMessage, type Messenger, type MessengerLog } from './messenger.js';

/** The one channel of the console's messages (per database: NOTIFY never crosses databases). */
export const LIVE_CHANNEL = 'campus_live';

/** Waits between reconnection attempts of the listening connection. */
const RECONNECT_DELAYS_MS = [100, 500, 1_000, 2_000, 5_000];

/** A connection listening on the live channel, reconnecting by itself. */
export interface DatabaseListener {
  /** Moves with every new listening connection; 0 while none listens (messenger.ts `listeningEpoch`). */
  epoch(): number;
  ready(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Listens on the live channel and hands each message to `subscribers`: the PostgreSQL messenger's
 * own messages, and the database's notices (its triggers notify the same channel, migration 0053),
 * which the Redis messenger hears through this too.
 */
export function listenToDatabase(connectionString: string, subscribers: LocalSubscribers, log: MessengerLog): DatabaseListener {
  let listener: pg.Client | undefined;
  let isClosed = false;
  let attempt = 0;
  let connections = 0;
  let readyResolve!: () => void;
  const isReady = new Promise<void>((resolve) => (readyResolve = resolve));

  const listen = async (): Promise<void> => {
    if (isClosed) return;
    const client = new pg.Client({ connectionString });
    client.on('notification', (notification) => {
      if (notification.channel !== LIVE_CHANNEL || notification.payload === undefined) return;
      const message = decodeMessage(notification.payload);
      if (message) subscribers.deliver(message);
    });
    client.on('error', (error) => {
      log.warn({ err: error }, 'messenger listening connection lost');
      void client.end().catch(() => undefined);
      if (listener === client) listener = undefined;
      scheduleReconnect();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${LIVE_CHANNEL}`);
      if (isClosed) {
        await client.end();
        return;
      }
      listener = client;
      connections += 1;
      attempt = 0;
      readyResolve();
    } catch (error) {
      log.warn({ err: error }, 'messenger could not listen');
      void client.end().catch(() => undefined);
      scheduleReconnect();
    }
  };
  let reconnectTimer: NodeJS.Timeout | undefined;
  const scheduleReconnect = () => {
    if (isClosed || reconnectTimer) return;
    const delay = RECONNECT_DELAYS_MS[Math.min(attempt, RECONNECT_DELAYS_MS.length - 1)]!;
    attempt += 1;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      void listen();
    }, delay);
    reconnectTimer.unref();
  };
  void listen();

  return {
    epoch: () => (listener ? connections : 0),
    ready: () => isReady,
    async close() {
      isClosed = true;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      await listener?.end().catch(() => undefined);
    },
  };
}

export function createPostgresMessenger(connectionString: string, log: MessengerLog): Messenger {
  const subscribers = new LocalSubscribers(log);
  // Publishing shares no connection with the console's statements: a NOTIFY never waits behind a
  // slow page, and the pool's bound stays the console's.
  const publisher = new pg.Pool({ connectionString, max: 2 });
  publisher.on('error', (error) => log.warn({ err: error }, 'messenger publisher connection lost'));
  const listener = listenToDatabase(connectionString, subscribers, log);

  return {
    transport: 'postgres',
    publish(topic, body) {
      const text = encodeMessage(topic, body);
      if (text === null) return log.warn({ topic }, 'message too large, not sent');
      publisher.query('select pg_notify($1, $2)', [LIVE_CHANNEL, text]).catch((error: unknown) => log.warn({ err: error, topic }, 'message not sent'));
    },
    subscribe: (topic, listenerFn) => subscribers.subscribe(topic, listenerFn),
    listeningEpoch: listener.epoch,
    ready: listener.ready,
    async close() {
      await listener.close();
      await publisher.end().catch(() => undefined);
    },
  };
}
