/**
 * The messenger: publish(topic, message) on one instance reaches subscribe(topic) on every instance
 * (ARCHITECTURE "Live updates and messages between instances"). Three transports, one contract:
 * in process (PGlite is one process), PostgreSQL LISTEN/NOTIFY (the default on PostgreSQL), Redis
 * pub/sub (when REDIS_URL is set). A message is delivered to the publishing instance too, always
 * through the transport, so every instance sees the same order.
 *
 * Messages are hints, not records: a lost one (a transport reconnecting) is made good by the
 * listener's next poll or event, so nothing is queued or retried. A message is small (NOTIFY caps
 * a payload at 8000 bytes): name what changed, never carry rows.
 */
import { EventEmitter } from 'node:events';

/** What travels: the topic, and a JSON-able body. */
export interface Message {
  topic: string;
  body: unknown;
}

export type MessageListener = (body: unknown, topic: string) => void;

export interface Messenger {
  readonly transport: 'memory' | 'postgres' | 'redis';
  /** Sends a message to every instance's subscribers of its topic; never throws (a failure is logged). */
  publish(topic: string, body: unknown): void;
  /** Calls `listener` for each message of `topic` ('*': every topic); answers the unsubscribe. */
  subscribe(topic: string, listener: MessageListener): () => void;
  /**
   * A number that changes with every (re)connection of the listening side, 0 while it is down: what
   * was published meanwhile was lost. Only transports that hear the database's own notices (PostgreSQL's,
   * and Redis's beside a PostgreSQL database) answer it (caller-memory.ts).
   */
  listeningEpoch?(): number;
  /** Resolves once the transport listens (tests wait for it before publishing from another instance). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** Largest encoded message; NOTIFY refuses payloads of 8000 bytes and more. */
export const MAX_MESSAGE_BYTES = 7_900;

/** Encodes a message for a transport; answers null (and the caller logs) when it is too large. */
export function encodeMessage(topic: string, body: unknown): string | null {
  const text = JSON.stringify({ topic, body } satisfies Message);
  return Buffer.byteLength(text, 'utf8') > MAX_MESSAGE_BYTES ? null : text;
}

/** Decodes what a transport delivered; anything else is dropped. */
export function decodeMessage(text: string): Message | null {
  try {
    const parsed = JSON.parse(text) as Partial<Message>;
    return typeof parsed.topic === 'string' ? { topic: parsed.topic, body: parsed.body } : null;
  } catch {
    return null;
  }
}

export interface MessengerLog {
  warn(object: object, message: string): void;
}

/**
 * The subscribers of one instance: the transports hand each decoded message here. A listener that
 * throws is logged and the others still run.
 */
export class LocalSubscribers {
  private readonly emitter = new EventEmitter();

  constructor(private readonly log: MessengerLog) {
    // Every open stream subscribes: hundreds of listeners per topic are expected, not a leak.
    this.emitter.setMaxListeners(0);
  }

  subscribe(topic: string, listener: MessageListener): () => void {
    const wrapped = (body: unknown, messageTopic: string) => {
      try {
        listener(body, messageTopic);
      } catch (error) {
        this.log.warn({ err: error, topic: messageTopic }, 'message listener failed');
      }
    };
    this.emitter.on(topic, wrapped);
    return () => void this.emitter.off(topic, wrapped);
  }

  deliver(message: Message): void {
    this.emitter.emit(message.topic, message.body, message.topic);
    this.emitter.emit('*', message.body, message.topic);
  }
}

/** The in-process messenger: one instance only (PGlite), delivered on the next turn as a transport would. */
export function createMemoryMessenger(log: MessengerLog): Messenger {
  const subscribers = new LocalSubscribers(log);
  let isClosed = false;
  return {
    transport: 'memory',
    publish(topic, body) {
      const text = encodeMessage(topic, body);
      if (text === null) return log.warn({ topic }, 'message too large, not sent');
      setImmediate(() => {
        if (isClosed) return;
        const message = decodeMessage(text);
        if (message) subscribers.deliver(message);
      });
    },
    subscribe: (topic, listener) => subscribers.subscribe(topic, listener),
    ready: async () => undefined,
    async close() {
      isClosed = true;
    },
  };
}
