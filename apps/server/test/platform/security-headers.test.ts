import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app.js';
import { createDatabase, type DatabaseHandle } from '../../src/db/client.js';
import { IN_MEMORY_DATA_DIR, loadEnv } from '../../src/env.js';
import { HSTS_VALUE } from '../../src/platform/security-headers.js';

/** The CSP as a map of directive → sources. */
function directives(header: string | undefined): Map<string, string[]> {
  const parsed = new Map<string, string[]>();
  for (const part of (header ?? '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) parsed.set(name, sources);
  }
  return parsed;
}

function expectSecurityHeaders(headers: Record<string, unknown>): void {
  const csp = directives(headers['content-security-policy'] as string | undefined);
  expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  expect(csp.get('script-src')).toEqual(["'self'"]);
  expect(csp.get('default-src')).toEqual(["'self'"]);
  expect(csp.get('object-src')).toEqual(["'none'"]);
  expect(csp.has('upgrade-insecure-requests')).toBe(false);
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(headers['x-frame-options']).toBe('DENY');
}

describe('security headers', () => {
  let database: DatabaseHandle;
  let webRoot: string;
  const apps: App[] = [];
  const build = async (env: Record<string, string> = {}) => {
    // No load shedding: a busy machine must not turn these calls into 503s (see test-app.ts).
    const quiet = { LOG_LEVEL: 'silent', SHED_EVENT_LOOP_DELAY_MS: '0', SHED_EVENT_LOOP_UTILIZATION: '0' };
    const app = await buildApp({ env: loadEnv({ ...quiet, ...env }), database, webRoot });
    apps.push(app);
    return app;
  };
  beforeAll(async () => {
    webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-web-'));
    fs.writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>Campus Ops</title>');
    // Health reads the database; nothing else here does, so an unmigrated in-memory one is enough.
    database = await createDatabase({ DATA_DIR: IN_MEMORY_DATA_DIR });
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await database.close();
    fs.rmSync(webRoot, { recursive: true, force: true });
  });

  it('are sent with the web app page, its SPA fallback, an API answer and an API error', async () => {
    const app = await build();
    const page = await app.inject({ method: 'GET', url: '/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expectSecurityHeaders(page.headers);
    expectSecurityHeaders((await app.inject({ method: 'GET', url: '/schoolManage' })).headers);
    const health = await app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
    expectSecurityHeaders(health.headers);
    const refused = await app.inject({ method: 'POST', url: '/api/School/Search', payload: {} });
    expect(refused.statusCode).toBe(401);
    expectSecurityHeaders(refused.headers);
  });

  it('send HSTS only over TLS: never on plain HTTP, and behind a proxy only when trusted and it says https', async () => {
    const direct = await build();
    expect((await direct.inject({ method: 'GET', url: '/' })).headers['strict-transport-security']).toBeUndefined();
    // Without TRUST_PROXY a client's own X-Forwarded-Proto is not believed.
    const claimed = await direct.inject({ method: 'GET', url: '/', headers: { 'x-forwarded-proto': 'https' } });
    expect(claimed.headers['strict-transport-security']).toBeUndefined();

    const proxied = await build({ TRUST_PROXY: '1' });
    const overTls = await proxied.inject({ method: 'GET', url: '/api/health', headers: { 'x-forwarded-proto': 'https' } });
    expect(overTls.headers['strict-transport-security']).toBe(HSTS_VALUE);
    const overHttp = await proxied.inject({ method: 'GET', url: '/', headers: { 'x-forwarded-proto': 'http' } });
    expect(overHttp.headers['strict-transport-security']).toBeUndefined();
  });
});
