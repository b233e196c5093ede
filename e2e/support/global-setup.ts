import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

/** Not 8080: a developer's `npm start` or `npm run dev` may be running there. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 8181);
export const CAPTCHA_CODE = '1234';

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
const SERVER_DIR = path.join(REPO_ROOT, 'apps/server');
const WEB_INDEX = path.join(REPO_ROOT, 'apps/web/dist/index.html');

let server: ChildProcess | undefined;
let dataDir: string | undefined;

async function answers(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    return res.ok;
  } catch {
    return false;
  }
}

async function waitForHealth(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the e2e server exited (code ${child.exitCode}, signal ${child.signalCode}) before answering ${url}; its output is above`);
    }
    if (await answers(url)) return;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`server did not answer ${url} within ${timeoutMs} ms`);
}

/**
 * Starts the console on a fresh embedded database with demo data, as `npm start` would, on E2E_PORT
 * with CAPTCHA_FIXED_CODE. With E2E_BASE_URL set, the specs run against that console instead (it
 * must have been started with CAPTCHA_FIXED_CODE=1234 on demo data; the specs add and delete rows).
 */
export async function setup(project: TestProject): Promise<void> {
  const external = process.env.E2E_BASE_URL?.replace(/\/$/, '');
  if (external) {
    if (!(await answers(`${external}/api/health`))) throw new Error(`E2E_BASE_URL ${external} does not answer /api/health`);
    project.provide('baseUrl', external);
    return;
  }
  if (!existsSync(WEB_INDEX)) {
    throw new Error(`no built web app at ${WEB_INDEX}: run \`npm run test:e2e\` (it builds first) or \`npm run build -w apps/web\``);
  }
  const baseUrl = `http://127.0.0.1:${E2E_PORT}`;
  // A console left over from an interrupted run would answer the health check for ours.
  if (await answers(`${baseUrl}/api/health`)) {
    throw new Error(`something already answers on port ${E2E_PORT}; stop it or set E2E_PORT to a free port`);
  }

  dataDir = mkdtempSync(path.join(tmpdir(), 'campus-e2e-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(E2E_PORT),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    CAPTCHA_FIXED_CODE: CAPTCHA_CODE,
    LOG_LEVEL: 'warn',
    // No load shedding, as in the API tests: on a busy CI machine a shed write would fail a journey.
    SHED_EVENT_LOOP_DELAY_MS: '0',
    SHED_EVENT_LOOP_UTILIZATION: '0',
    SHED_DB_QUEUE: '0',
    SHED_DB_WAIT_MS: '0',
  };
  // The suite runs on the embedded database whatever the CI shell exports.
  delete env.DATABASE_URL;
  delete env.NODE_ENV;
  // One node process (no npx wrapper), in its own process group, so teardown stops all of it.
  server = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: SERVER_DIR,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: true,
  });
  await waitForHealth(`${baseUrl}/api/health`, server, 120_000);
  project.provide('baseUrl', baseUrl);
  // Rows written before this moment are the demo seed's, whatever the journeys write later.
  project.provide('seededBefore', new Date().toISOString());
}

export async function teardown(): Promise<void> {
  const child = server;
  if (child?.pid && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    const signal = (name: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, name);
      } catch {
        // already gone
      }
    };
    signal('SIGTERM');
    const stopped = await Promise.race([exited.then(() => true), new Promise((r) => setTimeout(() => r(false), 10_000))]);
    if (!stopped) signal('SIGKILL');
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    seededBefore: string;
  }
}
