import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { forgetDbContention } from '../../src/db/query-queue.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

describe('load shedding on the database queue', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp({ env: { SHED_DB_QUEUE: '3' } });
    token = await t.loginAs('admin');
  });
  afterAll(async () => {
    await t.close();
  });

  /** Holds every connection in an open transaction, then queues `extra` statements behind them. */
  async function fillQueue(extra: number) {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // PGlite has one connection, the PostgreSQL pool ten (db/client.ts).
    const connections = t.database.kind === 'pglite' ? 1 : 10;
    let holding = 0;
    const work: Promise<unknown>[] = Array.from({ length: connections }, () =>
      t.db.transaction(async () => {
        holding += 1;
        await held;
      }),
    );
    await vi.waitFor(() => expect(holding).toBe(connections), { timeout: 10_000 });
    work.push(...Array.from({ length: extra }, () => Promise.resolve(t.db.execute(sql`select 1`))));
    await vi.waitFor(() => expect(t.database.queue.waiting()).toBe(extra));
    return {
      release: async () => {
        release();
        await Promise.all(work);
      },
    };
  }

  it('answers 503 with Retry-After and "server busy" in the envelope while the queue is long; health still answers', async () => {
    const queue = await fillQueue(4);

    const shed = await t.injectAs(token, { method: 'POST', url: '/api/School/Search', payload: { pageIndex: 1, pageSize: 10 } });
    expect(shed.statusCode).toBe(503);
    expect(Number(shed.headers['retry-after'])).toBeGreaterThan(0);
    expect(shed.json()).toMatchObject({ code: 503, key: 'error.serverBusy', message: 'the server is busy; please try again in a moment', data: null });
    const inChinese = await t.injectAs(token, { method: 'GET', url: '/api/School/Get?id=1', headers: { 'accept-language': 'zh-CN' } });
    expect(inChinese.statusCode).toBe(503);
    expect(inChinese.json().message).toBe('服务器繁忙，请稍后再试');

    // The health check is never shed: it waits its turn and answers once the queue drains.
    const health = t.app.inject({ method: 'GET', url: '/api/health' });
    await queue.release();
    expect((await health).statusCode).toBe(200);

    const served = await t.injectAs(token, { method: 'POST', url: '/api/School/Search', payload: { pageIndex: 1, pageSize: 10 } });
    expect(served.statusCode).toBe(200);

    // The test app runs silent (LOG_LEVEL=silent): no call's line is written out, but a shed call's
    // still reaches the platform log, and a served one's does not.
    await t.app.platformLog.flush();
    const lines = (await t.db.execute(sql`select message from platform_logs where message like 'load shed:%' or message = 'request completed'`)) as unknown as { rows: { message: string }[] };
    expect(lines.rows.map((row) => row.message).sort()).toEqual(['load shed: GET /api/School/Get?id=1 answered 503 (dbQueue)', 'load shed: POST /api/School/Search answered 503 (dbQueue)']);
  });

  it('tells in Server-Timing how long the request took and that its statements waited for no busy connection', async () => {
    forgetDbContention();
    const response = await t.injectAs(token, { method: 'POST', url: '/api/School/Search', payload: { pageIndex: 1, pageSize: 10 } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['server-timing']).toMatch(/^app;dur=[\d.]+, db-wait;dur=0$/);
  });

  it('counts a request\'s waits for the connection while it is contended, and leaves them out where it could not count them', async () => {
    forgetDbContention();
    // A call that starts before any statement waits runs without async context: its wait is not known.
    let queue = await fillQueue(0);
    const unseen = t.injectAs(token, { method: 'GET', url: '/api/School/Get?id=1' });
    await vi.waitFor(() => expect(t.database.queue.waiting()).toBe(1));
    await queue.release();
    expect((await unseen).statusCode).toBe(200);
    expect((await unseen).headers['server-timing']).toMatch(/^app;dur=[\d.]+$/);

    // From that wait on, calls are counted. Below the limit of 3 waiting statements the call is admitted and waits for the held connections.
    queue = await fillQueue(0);
    const pending = t.injectAs(token, { method: 'GET', url: '/api/School/Get?id=1' });
    await vi.waitFor(() => expect(t.database.queue.waiting()).toBe(1));
    await queue.release();
    const response = await pending;
    expect(response.statusCode).toBe(200);
    const waited = Number(/db-wait;dur=([\d.]+)/.exec(String(response.headers['server-timing']))?.[1]);
    expect(waited).toBeGreaterThan(0);
  });
});

describe('load shedding on the calls in flight', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp({ env: { SHED_MAX_IN_FLIGHT: '1' } });
    token = await t.loginAs('admin');
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses a call while the limit of calls is being answered, and admits it again once they are done', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let holding = 0;
    // PGlite has one connection, the PostgreSQL pool ten: hold them all so the first call stays in flight.
    const connections = t.database.kind === 'pglite' ? 1 : 10;
    const holders = Array.from({ length: connections }, () =>
      t.db.transaction(async () => {
        holding += 1;
        await held;
      }),
    );
    // A fresh pool opens its connections now: on a busy machine that takes longer than waitFor's default second.
    await vi.waitFor(() => expect(holding).toBe(connections), { timeout: 10_000 });
    const first = t.injectAs(token, { method: 'GET', url: '/api/School/Get?id=1' });
    await vi.waitFor(() => expect(t.database.queue.waiting()).toBeGreaterThan(0));

    const second = await t.injectAs(token, { method: 'GET', url: '/api/School/Get?id=1' });
    expect(second.statusCode).toBe(503);
    expect(second.headers['retry-after']).toBeDefined();

    release();
    await Promise.all(holders);
    expect((await first).statusCode).toBe(200);
    expect((await t.injectAs(token, { method: 'GET', url: '/api/School/Get?id=1' })).statusCode).toBe(200);
  });
});

describe('load shedding on a busy event loop', () => {
  let t: TestApp;
  /** Keeps the event loop busy for a while, as a heavy Search does, then answers. */
  const spin = (ms: number) => {
    const until = performance.now() + ms;
    while (performance.now() < until);
  };
  beforeAll(async () => {
    t = await createTestApp({
      env: { SHED_EVENT_LOOP_UTILIZATION: '50', SHED_UTILIZATION_MIN_IN_FLIGHT: '8' },
      extend: (app) => {
        app.get('/api/Test/Busy', { config: { public: true } }, async () => {
          await new Promise((resolve) => setImmediate(resolve));
          spin(20);
          return { code: 200, message: 'ok', data: null };
        });
      },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  const busy = () => t.app.inject({ method: 'GET', url: '/api/Test/Busy' });
  const utilization = () => (t.app as unknown as { memoryUsage(): { eventLoopUtilized: number } }).memoryUsage().eventLoopUtilized;

  it('serves a lone client that keeps two calls in flight, however busy the loop; refuses a crowd', async () => {
    const statuses: number[] = [];
    // The client sends its calls back to back, two at a time, for a few of the loop's samples (500 ms each).
    const until = performance.now() + 3000;
    while (performance.now() < until) statuses.push(...(await Promise.all([busy(), busy()])).map((response) => response.statusCode));
    // The loop was measured busy, so only the rule under test kept these calls from being refused.
    expect(utilization()).toBeGreaterThan(0.5);
    expect(statuses.length).toBeGreaterThan(20);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);

    // The same busy loop with a crowd waiting for it: beyond eight calls in flight, the rest are refused.
    const crowd = await Promise.all(Array.from({ length: 24 }, () => busy()));
    const shed = crowd.filter((response) => response.statusCode === 503);
    expect(shed.length).toBeGreaterThan(0);
    expect(shed[0]!.json()).toMatchObject({ code: 503, key: 'error.serverBusy' });
  });
});
