import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.js';
import { createMigratedDatabase } from '../helpers/test-app.js';

describe.runIf(process.env.TEST_DB === 'postgres')('pooled PostgreSQL connections', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await createMigratedDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  it('plan without parallel workers and without JIT on every connection of the pool', async () => {
    // Ten at once: each runs on its own pooled connection, and every one must carry the option.
    const settings = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const result = (await database.db.execute(sql`select current_setting('max_parallel_workers_per_gather') as workers, current_setting('jit') as jit, pg_sleep(0.05)`)) as unknown as {
          rows: Array<{ workers: string; jit: string }>;
        };
        return [result.rows[0]?.workers, result.rows[0]?.jit];
      }),
    );
    expect(settings).toEqual(Array(10).fill(['0', 'off']));
  });
});
