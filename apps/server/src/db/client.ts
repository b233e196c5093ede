import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { builtOnce } from '@campus/contract';
import { PgDialect, type PgDatabase, type PgQueryResultHKT, type PgTransaction } from 'drizzle-orm/pg-core';
import type { ExtractTablesWithRelations, SQL } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { IN_MEMORY_DATA_DIR, type Env } from '../env.js';
import { lockDataDir } from './data-dir-lock.js';
import { gatePglite, measurePool, type QueryQueue } from './query-queue.js';
import * as schema from './schema/index.js';

export type Schema = typeof schema;

/** A drizzle database on either driver; transactions (`db.transaction`) work on both. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

/** A database handle inside or outside a transaction. */
export type Executor = Pick<Database, 'select' | 'insert' | 'update' | 'delete' | 'execute'>;

/** The rows a raw statement answers, typed as the caller knows them (drizzle's `execute` answers them untyped on both drivers). */
export async function rowsOf<T = Record<string, unknown>>(db: Executor, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/**
 * A raw statement over placeholders, prepared once per database under `name`: PostgreSQL parses it
 * once per connection and, after five runs, keeps a generic plan. Only for statements whose every
 * lookup is by a key, where that plan is the one each run would get (a Search's is not: see
 * resources/engine/search-statement.ts).
 */
export function namedStatement(name: string, statement: () => SQL): (db: Database) => { execute(values: Record<string, unknown>): Promise<unknown> } {
  return builtOnce((db: Database) => db._.session.prepareQuery(new PgDialect().sqlToQuery(statement()), undefined, name, false));
}

/** The handle a `db.transaction` callback receives; it is itself usable wherever a Database is. */
export type Transaction = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;

export type DatabaseKind = 'pglite' | 'postgres';

export interface DatabaseHandle {
  db: Database;
  kind: DatabaseKind;
  /** The statements waiting for a connection: the load shedding refuses new requests when it is long. */
  queue: QueryQueue;
  /** Closes the connection(s) and releases the data-directory lock. */
  close(): Promise<void>;
  /** An embedded database's whole data directory as a tarball (what `loadDataDir` takes back). */
  dumpDataDir?(): Promise<Blob>;
}

/** How to open the database beyond what the environment says. */
export interface OpenOptions {
  /**
   * PGlite starts from this data-directory dump instead of an empty cluster (test templates): in
   * memory, or in a DATA_DIR that holds no database yet (PGlite refuses a dump over an existing one).
   */
  loadDataDir?: Blob;
}

async function openPglite(dataDir: string, loadDataDir?: Blob): Promise<DatabaseHandle> {
  const inMemory = dataDir === IN_MEMORY_DATA_DIR;
  const lock = inMemory ? undefined : lockDataDir(dataDir);
  try {
    // pg_trgm backs the trigram indexes of "contains" filters (created by the first migration).
    // PGlite.create (not the constructor) loads extensions before the first query.
    const client = await PGlite.create({ ...(inMemory ? {} : { dataDir }), loadDataDir, extensions: { pg_trgm } });
    const gate = gatePglite(client);
    return {
      db: drizzlePglite({ client: gate.client, schema }),
      kind: 'pglite',
      queue: gate.queue,
      async close() {
        try {
          await client.close();
        } finally {
          lock?.release();
        }
      },
      // A checkpoint first: a database opened from the dump then starts without replaying the WAL
      // written since the last one (for the test template, the whole seed: ≈ 0.3 s of CPU per open).
      dumpDataDir: async () => {
        await client.exec('checkpoint');
        return client.dumpDataDir('none');
      },
    };
  } catch (error) {
    lock?.release();
    throw error;
  }
}

/**
 * Startup options of every pooled connection. No parallel query: the console's statements read one
 * page or a bounded count, and a parallel plan starts two worker processes per statement — on this
 * 2-core class of machine that tripled a Search's latency and cost CPU that no client backend shows
 * (docs/performance.md, "Parallel workers"). No JIT compilation: a statement the planner costs above
 * jit_above_cost (the deepest Search page of a common name part) spent 9–12 ms compiling expressions
 * it then ran in 50 ms; none of the console's statements runs long enough to earn that back.
 * Options in DATABASE_URL (`?options=…`) win over these.
 */
export const POSTGRES_SESSION_OPTIONS = '-c max_parallel_workers_per_gather=0 -c jit=off';

async function openPostgres(connectionString: string): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString, max: 10, options: POSTGRES_SESSION_OPTIONS });
  // An idle connection the server ends (restart, failover, a dropped test database) must not crash
  // the process: the pool discards it and opens a new one on the next query.
  pool.on('error', (error) => console.warn(`PostgreSQL connection lost: ${error.message}`));
  // Fail at start, not at the first request, when the server is unreachable.
  const probe = await pool.connect();
  probe.release();
  const queue = measurePool(pool);
  return {
    db: drizzlePostgres({ client: pool, schema }),
    kind: 'postgres',
    queue,
    close: () => pool.end(),
  };
}

/** Opens PostgreSQL when DATABASE_URL is set, else the embedded PGlite under DATA_DIR (locked). */
export function createDatabase(env: Pick<Env, 'DATABASE_URL' | 'DATA_DIR'>, options: OpenOptions = {}): Promise<DatabaseHandle> {
  return env.DATABASE_URL ? openPostgres(env.DATABASE_URL) : openPglite(env.DATA_DIR, options.loadDataDir);
}
