/**
 * The console as `npm start` runs it (src/main.ts: migrations, demo seed on a fresh database), in a
 * child process on a scratch database of its own, for the benchmarks that need the whole server
 * (bench:crash, bench:intake).
 */
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const SERVER_DIR = fileURLToPath(new URL('../apps/server/', import.meta.url));
// A loaded machine seeds PGlite slowly: BENCH_START_TIMEOUT_MS gives the first start longer.
const START_TIMEOUT_MS = Number(process.env.BENCH_START_TIMEOUT_MS ?? 120_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface Started {
  child: ChildProcess;
  base: string;
  /** From spawn to the first healthy answer, in ms. */
  startMs: number;
}

export interface ScratchDatabase {
  /** The variables that point the server at it. */
  env: Record<string, string>;
  cleanUp(): Promise<void>;
}

/** A new empty database of `kind` (pglite: a temporary directory; postgres: a database next to DATABASE_URL's). */
export async function scratchDatabase(kind: string, purpose: string): Promise<ScratchDatabase> {
  if (kind === 'pglite') {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), `campus-${purpose}-`));
    return { env: { DATA_DIR: dataDir, DATABASE_URL: '' }, cleanUp: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  if (kind !== 'postgres') throw new Error(`unknown --db ${kind}: pglite or postgres`);
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('--db postgres needs DATABASE_URL');
  // BENCH_DB_PREFIX: engineers sharing one PostgreSQL tell their scratch databases apart by it.
  const name = `${process.env.BENCH_DB_PREFIX ?? 'campus'}_${purpose}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString(), SEED_DEMO: '1' },
    async cleanUp() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/** A port nobody listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Starts main.ts as `npm start` does (tsx, migrations, seed) and waits until /api/health answers. */
export async function startServer(env: Record<string, string>): Promise<Started> {
  const port = await freePort();
  const started = performance.now();
  // node itself, not npm or npx: the pid killed is the server's, with nothing in between to reap it.
  // BENCH_SERVER_NODE_ARGS: extra node flags for the server alone (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`).
  const extraArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter((arg) => arg !== '');
  const child = spawn(process.execPath, [...extraArgs, '--import', 'tsx', 'src/main.ts'], {
    cwd: SERVER_DIR,
    env: {
      ...process.env,
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      CAPTCHA_FIXED_CODE: '1234',
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      // What is measured is durability and throughput, not shedding: a shed call on a busy machine would spoil the run.
      SHED_EVENT_LOOP_DELAY_MS: '0',
      SHED_EVENT_LOOP_UTILIZATION: '0',
      SHED_DB_QUEUE: '0',
      SHED_DB_WAIT_MS: '0',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let exited: number | null | undefined;
  child.once('exit', (code) => (exited = code));
  const base = `http://127.0.0.1:${port}`;
  while (performance.now() - started < START_TIMEOUT_MS) {
    if (exited !== undefined) throw new Error(`the server exited with code ${exited} while starting`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) return { child, base, startMs: performance.now() - started };
    } catch {
      // Not listening yet.
    }
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error(`the server did not answer /api/health within ${START_TIMEOUT_MS / 1000} s`);
}

/** Kills the server as a power cut would (SIGKILL). */
export function killHard(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/** Stops the server gracefully (SIGTERM). */
export function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
