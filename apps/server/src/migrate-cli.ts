/**
 * `npm run migrate`: applies the pending migrations and exits, for a deployment that migrates once
 * before it starts (or replaces) its server instances. The servers still take the same advisory lock
 * and apply anything pending at start, so running both is safe.
 */
import { createDatabase } from './db/client.js';
import { areMigrationsApplied, migrateDatabase } from './db/migrate.js';
import { loadEnv } from './env.js';

async function migrate(): Promise<void> {
  const env = loadEnv();
  const database = await createDatabase(env);
  try {
    await migrateDatabase(database, env.DATABASE_URL);
    if (!(await areMigrationsApplied(database.db))) throw new Error('the migrations ran but the newest one is not recorded');
    console.log(`Migrations applied (${database.kind === 'pglite' ? `embedded database in ${env.DATA_DIR}` : 'PostgreSQL'}).`);
  } finally {
    await database.close();
  }
}

migrate().catch((error: unknown) => {
  const isExpected = error instanceof Error && ['EnvError', 'DataDirLockedError'].includes(error.name);
  console.error(isExpected ? `Cannot migrate: ${error.message}` : error);
  process.exit(1);
});
