/**
 * The server under benchmark, in a process of its own so search.ts can sample its RSS from /proc:
 * the real app (buildApp) on the database of DATABASE_URL or DATA_DIR, listening on a free port of
 * 127.0.0.1. It reports `{ port }` over the IPC channel once it listens and closes on SIGTERM.
 * No migrations or seeds: seed-scale.ts prepared the database.
 */
import { buildApp } from '@campus/server/src/app.js';
import { createDatabase } from '@campus/server/src/db/client.js';
import { loadEnv } from '@campus/server/src/env.js';

const env = loadEnv({ ...process.env, DATA_DIR: process.env.DATA_DIR ?? './data-bench', LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' });
const database = await createDatabase(env);
const app = await buildApp({ env, database });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });

process.once('SIGTERM', () => {
  void app
    .close()
    .finally(() => database.close())
    .finally(() => process.exit(0));
});
