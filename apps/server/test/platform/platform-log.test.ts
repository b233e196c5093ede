import { PLATFORM_LOG_PATHS } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../src/db/client.js';
import { createPlatformLogSink, platformLogRowOf } from '../../src/platform/platform-log-sink.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { grantEverything } from '../resources/fixtures.js';

type Row = Record<string, unknown>;

let t: TestApp;
let admin: string;
let agent1: string;

beforeAll(async () => {
  t = await createTestApp({
    extend(app) {
      // A route that fails the way a bug does: the error handler logs it and answers a request id.
      app.get('/api/test/explode', async () => {
        throw new TypeError('the platform log should keep this');
      });
    },
  });
  await grantEverything(t, 'agent1');
  [admin, agent1] = await Promise.all([t.loginAs('admin'), t.loginAs('agent1')]);
});
afterAll(() => t.close());

const searchAs = async (token: string, url: string, body: Row = {}) => t.injectAs(token, { method: 'POST', url: `${url}?view=platLog`, payload: { pageSize: 50, ...body } });

describe('the platform log (platLog)', () => {
  it('keeps an error logged by a failed request, with its request id, route, caller and stack', async () => {
    const failed = await t.injectAs(admin, { method: 'GET', url: '/api/test/explode', headers: { 'x-request-id': 'req-platform-log-1' } });
    expect(failed.statusCode).toBe(500);
    expect(failed.json().data.requestId).toBe('req-platform-log-1');
    await t.app.platformLog.flush();

    const found = await searchAs(admin, '/api/PlatformLog/Search', { requestId: 'req-platform-log-1' });
    expect(found.statusCode, found.body).toBe(200);
    const [line] = found.json().data.items as Row[];
    expect(line).toMatchObject({ level: 'error', message: 'request failed', method: 'GET', route: '/api/test/explode', statusCode: 500, requestId: 'req-platform-log-1' });
    expect(line!.userId).toEqual(expect.any(Number));
    const full = await t.injectAs(admin, { method: 'GET', url: `/api/PlatformLog/Get?id=${line!.id}&view=platLog` });
    expect(full.json().data.stack).toContain('TypeError: the platform log should keep this');
  });

  it('answers the named calls: every line, and errors only', async () => {
    t.app.log.warn({ route: '/api/test/warned' }, 'a warning for the platform log');
    await t.app.platformLog.flush();
    const all = await searchAs(admin, PLATFORM_LOG_PATHS.all, { route: '/api/test/' });
    expect((all.json().data.items as Row[]).map((row) => row.level).sort()).toEqual(['error', 'warn']);
    // The errors-only call keeps its level whatever the body asks.
    const errors = await searchAs(admin, PLATFORM_LOG_PATHS.errors, { route: '/api/test/', level: 'warn' });
    expect(errors.statusCode, errors.body).toBe(200);
    expect((errors.json().data.items as Row[]).map((row) => row.route)).toEqual(['/api/test/explode']);
  });

  it('is read by company staff only', async () => {
    for (const url of ['/api/PlatformLog/Search', PLATFORM_LOG_PATHS.all, PLATFORM_LOG_PATHS.errors]) {
      expect((await searchAs(agent1, url)).statusCode).toBe(403);
    }
    expect((await t.app.inject({ method: 'POST', url: PLATFORM_LOG_PATHS.errors, payload: {} })).statusCode).toBe(401);
  });
});

describe('createPlatformLogSink', () => {
  it('ignores lines below warn and anything that is no JSON', () => {
    expect(platformLogRowOf(JSON.stringify({ level: 30, msg: 'info' }))).toBeNull();
    expect(platformLogRowOf('not json')).toBeNull();
    expect(platformLogRowOf(JSON.stringify({ level: 60, msg: 'fatal', reqId: 'r1' }))).toMatchObject({ level: 'error', message: 'fatal', requestId: 'r1' });
  });

  it('drops a batch the database refuses and reports it outside the logger, without retrying into a loop', async () => {
    const insert = vi.fn(() => ({ values: () => Promise.reject(new Error('database is down')) }));
    const reports: string[] = [];
    const sink = createPlatformLogSink({ insert } as unknown as Database, { batchSize: 2, reportFailure: (message) => reports.push(message) });
    for (let i = 0; i < 3; i += 1) sink.write(JSON.stringify({ level: 50, msg: `failure ${i}` }));
    await sink.flush();
    expect(sink.dropped).toBe(3);
    expect(insert).toHaveBeenCalledTimes(2);
    expect(reports).toHaveLength(2);
    expect(reports[0]).toContain('database is down');
  });

  it('keeps the newest lines when the queue overflows', async () => {
    const stored: Row[] = [];
    const db = { insert: () => ({ values: async (rows: Row[]) => void stored.push(...rows) }) } as unknown as Database;
    const sink = createPlatformLogSink(db, { batchSize: 100, maxQueued: 2 });
    for (let i = 0; i < 5; i += 1) sink.write(JSON.stringify({ level: 40, msg: `line ${i}` }));
    await sink.close();
    expect(stored.map((row) => row.message)).toEqual(['line 3', 'line 4']);
    expect(sink.dropped).toBe(3);
  });
});
