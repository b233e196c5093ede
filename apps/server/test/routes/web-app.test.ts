import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app.js';
import { createDatabase, type DatabaseHandle } from '../../src/db/client.js';
import { IN_MEMORY_DATA_DIR, loadEnv } from '../../src/env.js';

const INDEX_HTML = '<!doctype html><title>Campus Ops</title>';
// Long and repetitive enough that its compressed copies are much smaller than the file.
const SCRIPT = `export const rows = ${JSON.stringify(Array.from({ length: 100 }, (_, i) => ({ id: i, name: `row ${i}` })))};`;
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Writes a file and, like the web build's precompress step, its brotli and gzip copies. */
function writeWithCompressedCopies(file: string, text: string): void {
  fs.writeFileSync(file, text);
  fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(text));
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(text));
}

describe('GET /* (the built web app)', () => {
  let app: App;
  let database: DatabaseHandle;
  let webRoot: string;
  beforeAll(async () => {
    // A tiny build: index.html and a hashed script with compressed copies, a hashed script without, an unhashed file.
    webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-web-'));
    fs.mkdirSync(path.join(webRoot, 'assets'));
    writeWithCompressedCopies(path.join(webRoot, 'index.html'), INDEX_HTML);
    writeWithCompressedCopies(path.join(webRoot, 'assets/page-AbC123.js'), SCRIPT);
    fs.writeFileSync(path.join(webRoot, 'assets/small-AbC123.js'), 'console.log(1)');
    fs.writeFileSync(path.join(webRoot, 'app.js'), 'console.log(2)');
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
    expect(response.body).toBe('console.log(2)');
  });

  it('sends the brotli copy of a hashed asset to a browser that accepts it, cached for a year', async () => {
    const response = await app.inject({ method: 'GET', url: '/assets/page-AbC123.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe(IMMUTABLE);
    expect(response.headers.vary).toMatch(/Accept-Encoding/i);
    expect(zlib.brotliDecompressSync(response.rawPayload).toString()).toBe(SCRIPT);
    expect(response.rawPayload.length).toBeLessThan(SCRIPT.length);
  });

  it('sends the gzip copy when the browser accepts gzip but not brotli', async () => {
    const response = await app.inject({ method: 'GET', url: '/assets/page-AbC123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe(IMMUTABLE);
    expect(response.headers.vary).toMatch(/Accept-Encoding/i);
    expect(zlib.gunzipSync(response.rawPayload).toString()).toBe(SCRIPT);
  });

  it('sends the file itself to a browser that accepts no compression', async () => {
    const response = await app.inject({ method: 'GET', url: '/assets/page-AbC123.js', headers: { 'accept-encoding': 'identity' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body).toBe(SCRIPT);
    expect(response.headers['cache-control']).toBe(IMMUTABLE);
    expect(response.headers.vary).toMatch(/Accept-Encoding/i);
  });

  it('falls back to the file itself when the build wrote no compressed copy', async () => {
    const response = await app.inject({ method: 'GET', url: '/assets/small-AbC123.js', headers: { 'accept-encoding': 'gzip, br' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body).toBe('console.log(1)');
    expect(response.headers['cache-control']).toBe(IMMUTABLE);
  });

  it('has index.html revalidated on every use, compressed too, at / and as the SPA fallback', async () => {
    for (const url of ['/', '/index.html', '/schoolManage']) {
      const response = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['cache-control'], url).toBe('no-cache');
      expect(response.headers['content-encoding'], url).toBe('br');
      expect(response.headers['content-type'], url).toMatch(/text\/html/);
      expect(zlib.brotliDecompressSync(response.rawPayload).toString(), url).toBe(INDEX_HTML);
    }
    const plain = await app.inject({ method: 'GET', url: '/schoolManage' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain('<title>Campus Ops</title>');
  });

  it('keeps unhashed files out of the long cache', async () => {
    const response = await app.inject({ method: 'GET', url: '/app.js' });
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it('answers 404, not index.html, for a built file that no longer exists', async () => {
    const response = await app.inject({ method: 'GET', url: '/assets/page-OLDHASH.js', headers: { 'accept-encoding': 'gzip, br' } });
    expect(response.statusCode).toBe(404);
  });

  it('keeps the 404 envelope for unknown /api paths', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/Unknown/Call' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 404, message: 'address not found' });
  });
});
