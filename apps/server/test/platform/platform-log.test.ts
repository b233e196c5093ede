import { PLATFORM_LOG_PATHS } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../src/db/client.js';
import { runDailyJobOnce, withRunLine } from '../../src/platform/daily-jobs.js';
import { logDestination } from '../../src/platform/log-destination.js';
import { createPlatformLogSink, didJobWork, jobResultText, platformLogRowOf, type PlatformLogSink } from '../../src/platform/platform-log-sink.js';
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

  it("keeps the platform's own events beside its errors: a daily job's run and what it did (issue 26)", async () => {
    const job = { name: 'platform-log-test-job', run: async () => ({ purged: 3 }) };
    expect(await runDailyJobOnce(t.db, { now: () => new Date('2026-03-04T02:00:00Z') }, withRunLine(t.app.log, job))).toBe(true);
    await t.app.platformLog.flush();
    const found = await searchAs(admin, PLATFORM_LOG_PATHS.all, { message: 'platform-log-test-job', createdAtFrom: '2020-01-01T00:00:00.000Z' });
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json().data.items).toMatchObject([{ level: 'info', message: 'daily job platform-log-test-job ran: {"purged":3}' }]);
  });

  it('is read by company staff only', async () => {
    for (const url of ['/api/PlatformLog/Search', PLATFORM_LOG_PATHS.all, PLATFORM_LOG_PATHS.errors]) {
      expect((await searchAs(agent1, url)).statusCode).toBe(403);
    }
    expect((await t.app.inject({ method: 'POST', url: PLATFORM_LOG_PATHS.errors, payload: {} })).statusCode).toBe(401);
  });
});

describe('createPlatformLogSink', () => {
  it('ignores lines below warn that name no platform event, and anything that is no JSON', () => {
    expect(platformLogRowOf(JSON.stringify({ level: 30, msg: 'info' }))).toBeNull();
    expect(platformLogRowOf(JSON.stringify({ level: 30, msg: 'server started', platformEvent: 'start' }))).toMatchObject({ level: 'info', message: 'server started' });
    expect(platformLogRowOf(JSON.stringify({ level: 30, msg: 'request completed', req: { method: 'POST', url: '/api/School/Search' }, statusCode: 503, shed: 'queue full' }))).toMatchObject({
      level: 'info',
      message: 'load shed: POST /api/School/Search answered 503 (queue full)',
    });
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

describe('logDestination', () => {
  it("hands the platform log its events and warnings, never the other info lines", () => {
    const kept: string[] = [];
    const sink = { write: (line: string) => kept.push(line) } as unknown as PlatformLogSink;
    const destination = logDestination('silent', sink, { write: () => undefined });
    destination.write(JSON.stringify({ level: 30, msg: 'request completed' }));
    destination.write(JSON.stringify({ level: 30, msg: 'server started', platformEvent: 'start' }));
    destination.write(JSON.stringify({ level: 40, msg: 'slow' }));
    expect(kept.map((line) => JSON.parse(line).msg)).toEqual(['server started', 'slow']);
  });
});

describe('didJobWork', () => {
  it('writes a recurring job\'s line only when the run did something', () => {
    expect([0, [], {}, { purged: 0, sent: [] }, undefined, null].map(didJobWork)).toEqual([false, false, false, false, false, false]);
    expect([2, ['x'], { purged: 0, sent: 1 }, 'ok'].map(didJobWork)).toEqual([true, true, true, true]);
  });
});

describe('jobResultText', () => {
  it("says what a run did: its counts, a bare statement's row count, or done", () => {
    expect(jobResultText({ expired: 2 })).toBe('{"expired":2}');
    expect(jobResultText({ rows: [], fields: [], command: 'DELETE', affectedRows: 3, rowCount: 3 })).toBe('DELETE 3 rows');
    expect(jobResultText(undefined)).toBe('done');
  });
});
