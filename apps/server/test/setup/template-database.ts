/**
 * One migrated, demo-seeded database per test run (and one migrated only, for the seeding's tests), copied by every test file instead of migrating
 * and seeding its own (≈ 8 s a file on PGlite, ≈ 4 s on PostgreSQL): PGlite files start from a
 * dump of its data directory, PostgreSQL files are created from a template database.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createDatabase, type DatabaseHandle } from '../../src/db/client.js';
import { migrateDatabase } from '../../src/db/migrate.js';
import { seedDefaults } from '../../src/seeds/defaults.js';
import { seedDemo } from '../../src/seeds/demo.js';
import { openLocalDiskStorage } from '../../src/platform/uploads.js';
import { TEST_UPLOAD_DIR } from '../helpers/upload-dir.js';
import { createTestClock } from '../helpers/test-clock.js';
import { IN_MEMORY_DATA_DIR } from '../../src/env.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A file holding the dump of a migrated, seeded PGlite data directory. */
    pgliteTemplate: string;
    /** The same, migrated but not seeded: for tests of the seeding itself. */
    pgliteMigratedTemplate: string;
    /** A migrated, seeded PostgreSQL database to create test databases from. */
    postgresTemplate: string;
    /** The same, migrated but not seeded. */
    postgresMigratedTemplate: string;
  }
}

async function seed(database: DatabaseHandle): Promise<void> {
  await seedDefaults(database.db);
  // The demo's payments end on the test clock's day, as they end today in a real start. Its pictures
  // and songs go where an in-memory test app keeps its uploads (env.ts), so their addresses open.
  const now = createTestClock().now();
  await seedDemo(database.db, now, await openLocalDiskStorage(TEST_UPLOAD_DIR, now));
}

/** Builds the PGlite dump; answers the teardown that removes it. */
export async function setupPgliteTemplate(project: TestProject): Promise<() => Promise<void>> {
  const dropUnclaimedPostgres = startPostgresTemplate(project);
  const database = await createDatabase({ DATABASE_URL: undefined, DATA_DIR: IN_MEMORY_DATA_DIR }).catch(async (error: unknown) => {
    await dropUnclaimedPostgres?.();
    throw error;
  });
  try {
    const dir = await mkdtemp(join(tmpdir(), 'campus-test-template-'));
    const dumpTo = async (name: string) => {
      const file = join(dir, name);
      await writeFile(file, Buffer.from(await (await database.dumpDataDir!()).arrayBuffer()));
      return file;
    };
    await migrateDatabase(database);
    // Migrating is most of the cost: tests of the seeding start from this dump instead of migrating again.
    project.provide('pgliteMigratedTemplate', await dumpTo('pglite-migrated.tar'));
    await seed(database);
    project.provide('pgliteTemplate', await dumpTo('pglite.tar'));
    return async () => {
      await rm(dir, { recursive: true, force: true });
      await dropUnclaimedPostgres?.();
    };
  } catch (error) {
    await dropUnclaimedPostgres?.();
    throw error;
  } finally {
    await database.close();
  }
}

interface PostgresTemplate {
  name: string;
  migratedName: string;
  drop(): Promise<void>;
}

/**
 * The PostgreSQL template being built, when the PGlite project's setup started it (below): vitest runs
 * the projects' global setups one after the other, in its one main process.
 */
const BUILDING_POSTGRES = Symbol.for('campus.test.postgresTemplate');
type Building = { template: Promise<PostgresTemplate>; claimed: boolean };
const building = globalThis as { [BUILDING_POSTGRES]?: Building };

/**
 * Starts building the PostgreSQL template now, when this run has the PostgreSQL project too: built one
 * after the other, the two templates left a core idle for the PostgreSQL one's whole build (its
 * migrations and seed run mostly in the PostgreSQL server, PGlite's in this process). Answers the
 * teardown that drops it should that project's setup never claim it.
 */
function startPostgresTemplate(project: TestProject): (() => Promise<void>) | undefined {
  if (!project.vitest.projects.some((other) => other.name === 'server-postgres') || building[BUILDING_POSTGRES]) return undefined;
  const started: Building = { template: buildPostgresTemplate(), claimed: false };
  // Its failure is reported by the setup that awaits it, not as an unhandled rejection meanwhile.
  started.template.catch(() => undefined);
  building[BUILDING_POSTGRES] = started;
  return async () => {
    if (!started.claimed) await (await started.template.catch(() => undefined))?.drop();
  };
}

/** Provides the PostgreSQL template (the one already being built, or a new one); answers the teardown that drops it. */
export async function setupPostgresTemplate(project: TestProject): Promise<() => Promise<void>> {
  const started = building[BUILDING_POSTGRES] ?? { template: buildPostgresTemplate(), claimed: true };
  started.claimed = true;
  building[BUILDING_POSTGRES] = started;
  const template = await started.template;
  project.provide('postgresMigratedTemplate', template.migratedName);
  project.provide('postgresTemplate', template.name);
  return () => template.drop();
}

/** Builds the PostgreSQL template database and its migrated-only twin. */
async function buildPostgresTemplate(): Promise<PostgresTemplate> {
  const adminUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('the server-postgres project needs TEST_DATABASE_URL or DATABASE_URL');
  const name = `campus_template_${randomBytes(6).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  const migratedName = `${name}_migrated`;
  const urlOf = (database: string) => {
    const url = new URL(adminUrl);
    url.pathname = `/${database}`;
    return url.toString();
  };
  // Each step on a connection of its own: a template must have none left when databases are created from it.
  const inDatabase = async (database: string, step: (handle: DatabaseHandle) => Promise<void>) => {
    const handle = await createDatabase({ DATABASE_URL: urlOf(database), DATA_DIR: IN_MEMORY_DATA_DIR });
    try {
      await step(handle);
    } finally {
      await handle.close();
    }
  };
  await admin(`create database ${migratedName}`);
  await inDatabase(migratedName, (handle) => migrateDatabase(handle, urlOf(migratedName)));
  await admin(`create database ${name} template ${migratedName}`);
  await inDatabase(name, seed);
  return {
    name,
    migratedName,
    async drop() {
      await admin(`drop database if exists ${name} with (force)`);
      await admin(`drop database if exists ${migratedName} with (force)`);
    },
  };
}
