import { randomBytes } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { inject } from 'vitest';
import { buildApp, type App, type BuildAppOptions } from '../../src/app.js';
import { createDatabase, type Database, type DatabaseHandle } from '../../src/db/client.js';
import { DEMO_ACCOUNTS } from '../../src/seeds/demo.js';
import { IN_MEMORY_DATA_DIR, loadEnv, type Env } from '../../src/env.js';
import { AppError } from '../../src/platform/errors.js';
import { md5Hex } from '../../src/platform/passwords.js';
import { translatePgError } from '../../src/platform/pg-errors.js';
import { createTestClock, type TestClock } from './test-clock.js';
import { TEST_UPLOAD_DIR } from './upload-dir.js';
import { pgliteTemplateDump } from './pglite-template.js';

export const CAPTCHA_CODE = '1234';

export interface TestApp {
  app: App;
  db: Database;
  database: DatabaseHandle;
  env: Env;
  clock: TestClock;
  /** Logs in through captcha + Login_web and answers the token; throws unless the answer is code 200. */
  login(userName: string, password: string): Promise<string>;
  /** Logs a demo account in with its seeded password. */
  loginAs(loginName: string): Promise<string>;
  /** app.inject with `Authorization: Bearer <token>`. */
  injectAs(token: string, options: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Extra environment variables (strings, as in process.env). */
  env?: Record<string, string>;
  /** Registers test-only routes before the app is ready. */
  extend?: (app: App) => void | Promise<void>;
  /** Finds a token's session instead of the sessions table's touchSession (the fuzz suite memoizes it). */
  lookupSession?: BuildAppOptions['lookupSession'];
  /** The payment providers' HTTP client and nonces (a fake WeChat Pay). */
  paymentProviders?: BuildAppOptions['paymentProviders'];
}

/** The seeded password of a demo account. */
export function demoPassword(loginName: string): string {
  const account = DEMO_ACCOUNTS.find((candidate) => candidate.loginName === loginName);
  if (!account) throw new Error(`no demo account ${loginName}`);
  return account.password;
}

const usesPostgres = () => process.env.TEST_DB === 'postgres';

/** A fresh database named campus_test_<random> on the test PostgreSQL server, copied from `template`, and how to drop it. */
async function createPostgresDatabase(template = inject('postgresTemplate')): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL or DATABASE_URL');
  const name = `campus_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name} template ${template}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/**
 * A database of its own, migrated but not seeded (the run's second template, copied, not migrated
 * again): in-memory PGlite, or (TEST_DB=postgres) a new PostgreSQL database that close() drops.
 */
export async function createMigratedDatabase(): Promise<DatabaseHandle> {
  if (!usesPostgres()) {
    return createDatabase({ DATA_DIR: IN_MEMORY_DATA_DIR }, { loadDataDir: await pgliteTemplateDump('pgliteMigratedTemplate') });
  }
  const postgres = await createPostgresDatabase(inject('postgresMigratedTemplate'));
  const database = await createDatabase({ DATABASE_URL: postgres.url, DATA_DIR: IN_MEMORY_DATA_DIR });
  return {
    ...database,
    async close() {
      await database.close();
      await postgres.drop();
    },
  };
}

/**
 * Tests read the English texts unless a request asks for another language: the console's default
 * (Chinese, with no Accept-Language) has tests of its own.
 */
function answerInEnglishByDefault(app: App): void {
  const inject = app.inject.bind(app) as (options: InjectOptions) => Promise<LightMyRequestResponse>;
  const withEnglish = (options: InjectOptions) => inject({ ...options, headers: { 'accept-language': 'en', ...options.headers } });
  Object.assign(app, { inject: withEnglish });
}

/**
 * The test logger is silent, and a 500 answers only its request id: a rare 500 on a busy CI machine
 * would leave nothing to read. Each unexpected failure is printed with its stack, so the run's output
 * says what failed.
 */
function printServerErrors(app: App): void {
  // onError runs before the error handler: leave out what the handler answers as the client's fault.
  app.addHook('onError', async (request, _reply, error) => {
    const status = (error as { statusCode?: number }).statusCode;
    const expected = error instanceof AppError || hasZodFastifySchemaValidationErrors(error) || translatePgError(error) || (status !== undefined && status < 500);
    if (!expected) console.error(`server error on ${request.method} ${request.url} (${request.id}):`, error);
  });
}

/**
 * A migrated, demo-seeded app on a database of its own: in-memory PGlite, or (TEST_DB=postgres) a
 * new PostgreSQL database dropped again by close(). Captcha answers are always '1234'; time is a
 * TestClock the test moves by hand.
 */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const postgres = usesPostgres() ? await createPostgresDatabase() : undefined;
  const env = loadEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    CAPTCHA_FIXED_CODE: CAPTCHA_CODE,
    // No load shedding unless a test asks for it: a busy CI machine must not turn calls into 503s.
    SHED_EVENT_LOOP_DELAY_MS: '0',
    SHED_EVENT_LOOP_UTILIZATION: '0',
    SHED_DB_QUEUE: '0',
    SHED_DB_WAIT_MS: '0',
    SHED_MAX_IN_FLIGHT: '0',
    ...(postgres ? { DATABASE_URL: postgres.url } : { DATA_DIR: IN_MEMORY_DATA_DIR }),
    // On both databases the uploads the demo seed stored (test/setup/template-database.ts), never the repository's data folder.
    UPLOAD_DIR: TEST_UPLOAD_DIR,
    ...options.env,
  });
  // The run's template is migrated and demo-seeded already (test/setup/template-database.ts).
  const database = await createDatabase(env, postgres ? {} : { loadDataDir: await pgliteTemplateDump() });
  const clock = createTestClock();
  const app = await buildApp({ env, database, clock, lookupSession: options.lookupSession, paymentProviders: options.paymentProviders });
  answerInEnglishByDefault(app);
  printServerErrors(app);
  await options.extend?.(app);
  await app.ready();

  const login = async (userName: string, password: string) => {
    const captcha = await app.inject({ method: 'GET', url: '/api/Account/GetVerificationCode' });
    const response = await app.inject({
      method: 'POST',
      url: '/api/Account/Login_web',
      payload: { userName, password: md5Hex(password), vcId: captcha.json().data.vcId, vcCode: CAPTCHA_CODE },
    });
    const body = response.json();
    if (body.code !== 200) throw new Error(`login of ${userName} failed: ${body.code} ${body.message}`);
    return body.data.Token as string;
  };

  return {
    app,
    db: database.db,
    database,
    env,
    clock,
    login,
    loginAs: (loginName) => login(loginName, demoPassword(loginName)),
    injectAs: (token, request) => app.inject({ ...request, headers: { ...request.headers, authorization: `Bearer ${token}` } }),
    async close() {
      await app.close();
      await database.close();
      await postgres?.drop();
    },
  };
}
