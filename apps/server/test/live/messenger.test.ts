import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryMessenger, encodeMessage, MAX_MESSAGE_BYTES, type Messenger } from '../../src/platform/messenger.js';
import { createPostgresMessenger } from '../../src/platform/messenger-postgres.js';
import { createRedisMessenger, redisChannelOf } from '../../src/platform/messenger-redis.js';
import { isReachable, redisUrl } from '../helpers/redis.js';

const silent = { warn: () => undefined };
const postgresUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
const hasRedis = await isReachable(redisUrl);

const received = (messenger: Messenger, topic: string) => {
  const bodies: unknown[] = [];
  messenger.subscribe(topic, (body) => bodies.push(body));
  return bodies;
};
const until = async (condition: () => boolean, timeoutMs = 3_000) => {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

const opened: Messenger[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((messenger) => messenger.close()));
});

/** The contract every transport keeps, run for one pair of instances of it. */
function behavesAsMessenger(name: string, pair: () => Promise<[Messenger, Messenger]>) {
  it(`${name}: a message published on one instance reaches the subscribers of both, by topic`, async () => {
    const [a, b] = await pair();
    const topic = `t${randomBytes(4).toString('hex')}`;
    const onA = received(a, topic);
    const onB = received(b, topic);
    const other = received(b, `${topic}-other`);
    const all: string[] = [];
    b.subscribe('*', (_body, messageTopic) => messageTopic.startsWith(topic) && all.push(messageTopic));
    a.publish(topic, { schoolId: 7, n: 1 });
    await until(() => onA.length === 1 && onB.length === 1);
    expect(onB).toEqual([{ schoolId: 7, n: 1 }]);
    expect(other).toEqual([]);
    expect(all).toEqual([topic]);
  });

  it(`${name}: an unsubscribed listener hears nothing more, and a throwing one stops no other`, async () => {
    const [a, b] = await pair();
    const topic = `t${randomBytes(4).toString('hex')}`;
    const heard: unknown[] = [];
    b.subscribe(topic, () => {
      throw new Error('listener failure');
    });
    const stop = b.subscribe(topic, (body) => heard.push(body));
    a.publish(topic, 1);
    await until(() => heard.length === 1);
    stop();
    const after = received(b, topic);
    a.publish(topic, 2);
    await until(() => after.length === 1);
    expect(heard).toEqual([1]);
  });
}

describe('messenger', () => {
  it('refuses a message NOTIFY could not carry, and sends nothing', async () => {
    expect(encodeMessage('t', 'x'.repeat(MAX_MESSAGE_BYTES))).toBeNull();
    const warnings: string[] = [];
    const memory = createMemoryMessenger({ warn: (_object, message) => warnings.push(message) });
    opened.push(memory);
    const heard = received(memory, 't');
    memory.publish('t', 'x'.repeat(MAX_MESSAGE_BYTES));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(heard).toEqual([]);
    expect(warnings).toEqual(['message too large, not sent']);
  });

  behavesAsMessenger('in process', async () => {
    const memory = createMemoryMessenger(silent);
    opened.push(memory);
    return [memory, memory];
  });

  describe.skipIf(!postgresUrl)('PostgreSQL LISTEN/NOTIFY', () => {
    behavesAsMessenger('postgres', async () => {
      const pair: [Messenger, Messenger] = [createPostgresMessenger(postgresUrl!, silent), createPostgresMessenger(postgresUrl!, silent)];
      opened.push(...pair);
      await Promise.all(pair.map((messenger) => messenger.ready()));
      return pair;
    });
  });

  describe.skipIf(!hasRedis)('Redis pub/sub', () => {
    behavesAsMessenger('redis', async () => {
      const channel = redisChannelOf(`test-${randomBytes(4).toString('hex')}`);
      const pair: [Messenger, Messenger] = [createRedisMessenger(redisUrl, channel, silent), createRedisMessenger(redisUrl, channel, silent)];
      opened.push(...pair);
      await Promise.all(pair.map((messenger) => messenger.ready()));
      return pair;
    });

    it('keeps two deployments (two databases) on one Redis apart', async () => {
      const a = createRedisMessenger(redisUrl, redisChannelOf('postgres://one'), silent);
      const b = createRedisMessenger(redisUrl, redisChannelOf('postgres://two'), silent);
      opened.push(a, b);
      await Promise.all([a.ready(), b.ready()]);
      const onB = received(b, 'x');
      const onA = received(a, 'x');
      a.publish('x', 1);
      await until(() => onA.length === 1);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(onB).toEqual([]);
    });
  });
});
