import { buildApp, type App } from './app.js';
import { createDatabase, type DatabaseHandle } from './db/client.js';
import { appliedMigrationCount, migrateDatabase } from './db/migrate.js';
import { platformEvent } from './platform/platform-log-sink.js';
import { DEMO_ACCOUNTS, seedDemo } from './seeds/demo.js';
import { seedDefaults } from './seeds/defaults.js';
import { ensureInitialAdmin } from './seeds/initial-admin.js';
import { wantsDemo } from './seeds/wants-demo.js';
import { loadEnv, type Env } from './env.js';
import { openLocalDiskStorage } from './platform/uploads.js';
import { intakeNoncePurgeJob } from './terminals/nonce-purge.js';
import { misIdentifyRetentionJob } from './reports/mis-identify-person.js';
import { scheduleDailyJobs } from './platform/daily-jobs.js';
import { logPartitionsJob } from './resources/engine/log-partitions.js';
import { logRetentionJob } from './resources/engine/log-retention.js';
import { scheduleRecurringJobs } from './platform/recurring-jobs.js';
import { attendanceRollupJob } from './reports/attendance-rollup.js';
import { overviewCounterJob, overviewCounterRetentionJob } from './reports/overview-counter.js';
import { ledgerCheckJob } from './finance/ledger-check.js';
import { checkFamilyTables, familyDailyJobs, familyRecurringJobs } from './resources/families.js';

function printBanner(env: Env, kind: DatabaseHandle['kind'], hasDemo: boolean): void {
  const host = env.HOST === '0.0.0.0' || env.HOST === '::' ? 'localhost' : env.HOST;
  const where = kind === 'pglite' ? `embedded PGlite in ${env.DATA_DIR}` : 'PostgreSQL (DATABASE_URL)';
  console.log(`\nCampus Ops Console is running at http://${host}:${env.PORT}  (API docs: /api/docs, database: ${where})`);
  if (!hasDemo) return;
  const width = Math.max(...DEMO_ACCOUNTS.map((account) => account.loginName.length)) + 2;
  console.log('\nDemo logins (account / password / type):');
  for (const { loginName, password, type, name } of DEMO_ACCOUNTS) {
    console.log(`  ${loginName.padEnd(width)}${password.padEnd(12)}${type.padEnd(10)}${name}`);
  }
  console.log('');
}

async function start(): Promise<void> {
  const env = loadEnv();
  const database = await createDatabase(env);
  let app: App | undefined;
  let isClosing = false;
  const shutDown = async (signal: string) => {
    if (isClosing) return;
    isClosing = true;
    console.log(`\n${signal} received, closing`);
    try {
      await app?.close();
    } finally {
      await database.close();
    }
    process.exit(0);
  };
  process.once('SIGINT', () => void shutDown('SIGINT'));
  process.once('SIGTERM', () => void shutDown('SIGTERM'));

  try {
    const migrationsBefore = await appliedMigrationCount(database.db);
    await migrateDatabase(database, env.DATABASE_URL);
    const migrationsAfter = await appliedMigrationCount(database.db);
    // A declared family whose migration was never generated stops the start here, in one line.
    await checkFamilyTables(database.db);
    await seedDefaults(database.db);
    const hasDemo = wantsDemo(env, database.kind);
    if (hasDemo) await seedDemo(database.db, new Date(), await openLocalDiskStorage(env.UPLOAD_DIR, new Date()));
    else await ensureInitialAdmin(database.db, { password: env.ADMIN_INITIAL_PASSWORD, phone: env.ADMIN_INITIAL_PHONE });
    app = await buildApp({ env, database });
    scheduleDailyJobs(app, [logPartitionsJob, logRetentionJob, misIdentifyRetentionJob, overviewCounterRetentionJob, ledgerCheckJob, ...familyDailyJobs()]);
    scheduleRecurringJobs(app, [intakeNoncePurgeJob, attendanceRollupJob, overviewCounterJob, ...familyRecurringJobs()]);
    // The platform log (platLog) tells the start's story before any request does.
    app.log.info(
      platformEvent('migrations', { applied: migrationsAfter - migrationsBefore, total: migrationsAfter }),
      `migrations applied: ${migrationsAfter - migrationsBefore} (${migrationsAfter} in all)`,
    );
    await app.listen({ port: env.PORT, host: env.HOST });
    app.log.info(platformEvent('start', { port: env.PORT, database: database.kind }), `server started on port ${env.PORT} (${database.kind === 'pglite' ? 'embedded PGlite' : 'PostgreSQL'})`);
    printBanner(env, database.kind, hasDemo);
  } catch (error) {
    await app?.close().catch(() => undefined);
    await database.close();
    throw error;
  }
}

start().catch((error: unknown) => {
  // Expected refusals (bad environment, locked data directory, missing admin password, families the
  // declarations and the server's modules disagree on) are one line.
  const isExpected = error instanceof Error && ['EnvError', 'DataDirLockedError', 'MissingInitialPasswordError', 'FamilyModuleError'].includes(error.name);
  console.error(isExpected ? `Campus Ops Console cannot start: ${error.message}` : error);
  process.exit(1);
});
