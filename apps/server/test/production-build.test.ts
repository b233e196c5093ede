/**
 * The production build: the server compiled by scripts/build.ts starts with plain `node` (no tsx, no
 * TypeScript), imports only production dependencies, finds its migrations, answers /readyz, and logs
 * each request with its id. Runs once, on PGlite (the PostgreSQL project skips it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildServer, importedPackages, runtimePackages } from '../scripts/build.js';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

const SERVER_DIR = fileURLToPath(new URL('..', import.meta.url));
/**
 * A whole process starting on an already migrated data directory: 16 s measured at a load average
 * of 28 on the 2-core machine, so this one test gets room beyond the usual 30 s (3× that).
 */
const STARTUP_LIMIT_MS = 50_000;

/** A port nobody listens on right now. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

describe.skipIf(process.env.TEST_DB === 'postgres')('the production build', () => {
  const outDir = path.join(SERVER_DIR, `.dist-test-${randomBytes(4).toString('hex')}`);
  let dataDir: string;
  let server: ChildProcess | undefined;
  let output = '';
  let imported: Set<string>;

  beforeAll(async () => {
    imported = importedPackages(await buildServer(outDir));
    // A migrated data directory (the run's template) spares the child the migrations' time.
    dataDir = await mkdtemp(path.join(tmpdir(), 'campus-prod-build-'));
    const template = await PGlite.create({ dataDir, loadDataDir: new Blob([await readFile(inject('pgliteTemplate'))]), extensions: { pg_trgm } });
    await template.close();
  });

  afterAll(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    await rm(outDir, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  });

  it('imports only production dependencies, never tsx or the build tools', () => {
    const allowed = runtimePackages();
    expect([...imported].filter((name) => !allowed.has(name))).toEqual([]);
    for (const devOnly of ['tsx', 'esbuild', 'vitest', 'typescript', 'drizzle-kit', '@campus/contract']) expect(imported.has(devOnly)).toBe(false);
    expect(imported).toContain('fastify');
  });

  it('starts with plain node and answers /readyz and /healthz, logging the request id', async () => {
    const port = await freePort();
    server = spawn(process.execPath, [path.join(outDir, 'main.js')], {
      cwd: SERVER_DIR,
      env: { PATH: process.env.PATH, NODE_ENV: 'production', SEED_DEMO: '0', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info', SHED_EVENT_LOOP_DELAY_MS: '0', SHED_EVENT_LOOP_UTILIZATION: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    server.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const base = `http://127.0.0.1:${port}`;
    let ready: Response | undefined;
    const giveUpAt = Date.now() + STARTUP_LIMIT_MS;
    while (Date.now() < giveUpAt && server.exitCode === null) {
      ready = await fetch(`${base}/readyz`, { headers: { 'x-request-id': 'prod-build-readyz' } }).catch(() => undefined);
      if (ready?.status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(ready?.status, output).toBe(200);
    expect(ready!.headers.get('x-request-id')).toBe('prod-build-readyz');
    expect(((await ready!.json()) as { data: unknown }).data).toEqual({ status: 'ready', database: 'reachable', migrations: 'applied' });
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    // One JSON line per request, carrying the id the caller sent.
    await expect.poll(() => output.split('\n').some((line) => line.includes('"reqId":"prod-build-readyz"') && line.includes('"statusCode":200'))).toBe(true);
  }, STARTUP_LIMIT_MS + 30_000);
});
