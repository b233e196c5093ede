import net from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveEvent } from '@campus/contract';
import { buildApp, type App } from '../../src/app.js';
import { createDatabase, type DatabaseHandle } from '../../src/db/client.js';
import { recordPayment } from '../../src/finance/payments.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { openStream, type OpenStream, type StreamEvent } from './stream-client.js';

const usesPostgres = process.env.TEST_DB === 'postgres';
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Whether a Redis answers (the Redis variant of the two-instance test needs one). */
const hasRedis = await new Promise<boolean>((resolve) => {
  const { hostname, port } = new URL(redisUrl);
  const socket = net.connect({ host: hostname, port: Number(port || 6379) });
  socket.setTimeout(500);
  socket.once('connect', () => (socket.destroy(), resolve(true)));
  socket.once('error', () => resolve(false));
  socket.once('timeout', () => (socket.destroy(), resolve(false)));
});

describe('GET /api/Live/Stream', () => {
  let t: TestApp;
  let baseUrl: string;
  let admin: string;
  let agent1: string;
  let agent1School: number;
  let agent2School: number;
  let trade = 0;
  const streams: OpenStream[] = [];

  beforeAll(async () => {
    // One-second heartbeats: an expired session ends its stream within the test's patience.
    t = await createTestApp({ env: { LIVE_HEARTBEAT_SECONDS: '1' } });
    baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    [admin, agent1] = await Promise.all([t.loginAs('admin'), t.loginAs('agent1')]);
    const schoolOf = async (agent: string) => {
      const found = (await t.db.execute(sql`select s.id from schools s join users u on u.id = s.agent_id where u.login_name = ${agent} order by s.id limit 1`)) as unknown as { rows: { id: number }[] };
      return Number(found.rows[0]!.id);
    };
    [agent1School, agent2School] = [await schoolOf('agent1'), await schoolOf('agent2')];
  });
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await t.close();
  });

  const open = async (token: string, url = baseUrl) => {
    const stream = await openStream(url, token);
    streams.push(stream);
    expect(stream.status).toBe(200);
    await stream.waitFor((event) => event.event === 'ready');
    return stream;
  };
  /** A refund application on a new payment of `schoolId`, through the console's Refund/Add on `app`. */
  const applyRefund = async (schoolId: number, app: App = t.app) => {
    trade += 1;
    const { payment } = await t.db.transaction((tx) => recordPayment(tx, { schoolId, amount: 5_000, channel: 'wechat', tradeNo: `T-LIVE-${trade}-${Date.now()}`, paidAt: t.clock.now() }));
    const response = await app.inject({ method: 'POST', url: '/api/Refund/Add', headers: { authorization: `Bearer ${admin}` }, payload: { paymentId: payment.id, reason: 'live' } });
    expect(response.statusCode, response.body).toBe(200);
  };
  const badgeOf = (schoolId: number) => (event: StreamEvent) => event.event === 'badges' && (event.data as LiveEvent).schoolId === schoolId;

  it('refuses a caller without a session', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/Live/Stream' });
    expect(response.statusCode).toBe(401);
  });

  it('answers 400 at once to a signed-in caller that does not accept an event stream', async () => {
    const response = await t.injectAs(admin, { method: 'GET', url: '/api/Live/Stream' });
    expect(response.statusCode).toBe(400);
    expect(response.json().data.errors[0].path).toBe('accept');
  });

  it("pushes a refund application's badge change to the callers whose scope holds its school, and to no one else", async () => {
    const [adminStream, agentStream] = [await open(admin), await open(agent1)];
    await applyRefund(agent2School);
    const pushed = await adminStream.waitFor(badgeOf(agent2School));
    expect(pushed.data).toMatchObject({ topic: 'badges', schoolId: agent2School, data: { family: 'Refund' } });
    await applyRefund(agent1School);
    await agentStream.waitFor(badgeOf(agent1School));
    // The agent's stream saw its own school's change and never agent2's.
    expect(agentStream.events.filter(badgeOf(agent2School))).toEqual([]);
  });

  it('answers the badge count that moved when the browser refetches on the event', async () => {
    const stream = await open(agent1);
    const before = (await t.injectAs(agent1, { method: 'GET', url: '/api/Home/GetBadgeCounts' })).json().data.refundApplied as number;
    await applyRefund(agent1School);
    await stream.waitFor((event) => badgeOf(agent1School)(event) && event.receivedAt > 0);
    const after = (await t.injectAs(agent1, { method: 'GET', url: '/api/Home/GetBadgeCounts' })).json().data.refundApplied as number;
    expect(after).toBe(before + 1);
  });

  it('ends the stream of a session that logs out, at once', async () => {
    const token = await t.loginAs('agent2');
    const stream = await open(token);
    await t.injectAs(token, { method: 'POST', url: '/api/Account/Logout' });
    const ended = await stream.waitFor((event) => event.event === 'session');
    expect(ended.data).toEqual({ reason: 'ended' });
    await stream.ended;
  });

  it('ends the stream at its next heartbeat once the session is past its idle expiry, and never keeps it alive', async () => {
    const token = await t.loginAs('sales1');
    const stream = await open(token);
    await stream.waitFor((event) => event.event === 'heartbeat', 3_000);
    t.clock.advance(t.env.sessionLimits.idleMs + 1_000);
    try {
      const ended = await stream.waitFor((event) => event.event === 'session', 4_000);
      expect(ended.data).toEqual({ reason: 'expired' });
      const response = await t.injectAs(token, { method: 'GET', url: '/api/Home/GetBadgeCounts' });
      expect(response.json().code).toBe('10011');
    } finally {
      t.clock.advance(-(t.env.sessionLimits.idleMs + 1_000));
    }
  });

  describe.skipIf(!usesPostgres)('two instances on one PostgreSQL', () => {
    let second: App;
    let secondDatabase: DatabaseHandle;
    let secondUrl: string;
    beforeAll(async () => {
      secondDatabase = await createDatabase(t.env);
      second = await buildApp({ env: t.env, database: secondDatabase, clock: t.clock });
      secondUrl = await second.listen({ port: 0, host: '127.0.0.1' });
      await Promise.all([t.app.messenger.ready(), second.messenger.ready()]);
    });
    afterAll(async () => {
      await second.close();
      await secondDatabase.close();
    });

    it('moves the badge on a stream attached to the other instance within 2 s of a refund applied on one', async () => {
      expect(second.messenger.transport).toBe('postgres');
      const stream = await open(admin, secondUrl);
      const appliedAt = Date.now();
      await applyRefund(agent1School, t.app);
      const pushed = await stream.waitFor(badgeOf(agent1School), 2_000);
      expect(pushed.receivedAt - appliedAt).toBeLessThan(2_000);
    });

    it.skipIf(!hasRedis)('does the same with REDIS_URL set: both instances on Redis pub/sub', async () => {
      const env = { ...t.env, REDIS_URL: redisUrl };
      const pair = await Promise.all([0, 1].map(async () => {
        const database = await createDatabase(env);
        const app = await buildApp({ env, database, clock: t.clock });
        return { app, database, url: await app.listen({ port: 0, host: '127.0.0.1' }) };
      }));
      try {
        expect(pair.map(({ app }) => app.messenger.transport)).toEqual(['redis', 'redis']);
        await Promise.all(pair.map(({ app }) => app.messenger.ready()));
        const stream = await open(admin, pair[1]!.url);
        await applyRefund(agent2School, pair[0]!.app);
        await stream.waitFor(badgeOf(agent2School), 2_000);
        stream.close();
      } finally {
        for (const { app, database } of pair) {
          await app.close();
          await database.close();
        }
      }
    });

    it('ends a stream on the other instance when its session logs out on this one', async () => {
      const token = await t.loginAs('child1');
      const stream = await open(token, secondUrl);
      await t.injectAs(token, { method: 'POST', url: '/api/Account/Logout' });
      expect((await stream.waitFor((event) => event.event === 'session')).data).toEqual({ reason: 'ended' });
    });
  });
});
