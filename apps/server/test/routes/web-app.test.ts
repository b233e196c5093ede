import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app.js';
import { createDatabase, type DatabaseHandle } from '../../src/db/client.js';
import { IN_MEMORY_DATA_DIR, loadEnv } from '../../src/env.js';

describe('GET /* (the built web app)', () => {
  let app: App;
  let database: DatabaseHandle;
  let webRoot: string;
  beforeAll(async () => {
    webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-web-'));
    fs.writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>Campus Ops</title>');
    fs.writeFileSync(path.join(webRoot, 'app.js'), 'console.log(1)');
    // No request here reaches the database; an unmigrated in-memory one is enough.
    database = await createDatabase({ DATA_DIR: IN_MEMORY_DATA_DIR });
    // No load shedding: a busy machine must not turn these calls into 503s (see test-app.ts).
    app = await buildApp({ env: loadEnv({ LOG_LEVEL: 'silent', SHED_EVENT_LOOP_DELAY_MS: '0', SHED_EVENT_LOOP_UTILIZATION: '0' }), database, webRoot });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
    fs.rmSync(webRoot, { recursive: true, force: true });
  });

  it('serves files of the build', async () => {
    const response = await app.inject({ method: 'GET', url: '/app.js' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('console.log(1)');
  });

  it('answers index.html for client routes (SPA fallback)', async () => {
    const response = await app.inject({ method: 'GET', url: '/schoolManage' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<title>Campus Ops</title>');
  });

  it('answers 404, not index.html, for a built file that no longer exists', async () => {
    const response = await app.inject({ method: 'GET', url: '/assets/page-OLDHASH.js' });
    expect(response.statusCode).toBe(404);
  });

  it('keeps the 404 envelope for unknown /api paths', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/Unknown/Call' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 404, message: 'address not found' });
  });
});
