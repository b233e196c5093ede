/**
 * Two writes that wait on each other: PostgreSQL breaks the deadlock by rolling one of them back
 * (40P01). The console's call that lost answers 503 with Retry-After and "try again" in the envelope,
 * never a 500, and left nothing behind. PGlite has one connection and no concurrent transactions.
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { unique } from '../resources/fixtures.js';

describe('a write that loses a deadlock (PostgreSQL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const count = async (query: ReturnType<typeof sql>) => Number(((await t.db.execute(query)) as unknown as { rows: { n: number }[] }).rows[0]!.n);

  it('answers 503 "try again" with Retry-After, and its device was not stored', async (context) => {
    if (process.env.TEST_DB !== 'postgres') return context.skip();
    const admin = await t.loginAs('admin');
    const schoolId = await count(sql`select min(id)::int as n from schools`);
    const serialNumber = `N16D${unique()}`;
    const other = new pg.Client({ connectionString: t.env.DATABASE_URL });
    await other.connect();
    try {
      // The other transaction never looks for the deadlock itself, so the console's call, which waits first, is the one rolled back.
      await other.query(`set deadlock_timeout = '20s'`);
      await other.query('begin');
      await other.query('select 1 from schools where id = $1 for update', [schoolId]);
      // The console's insert stores its device, then waits for the school the other transaction holds…
      const added = t.injectAs(admin, { method: 'POST', url: '/api/Device/Add', payload: { serialNumber, deviceClassCode: 'NVR-N16', state: 1, schoolId } });
      for (;;) {
        const waiting = await other.query(`select count(*)::int as n from pg_locks l join pg_stat_activity a on a.pid = l.pid where not l.granted and a.datname = current_database()`);
        if (Number(waiting.rows[0].n) > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      // …while the other transaction waits for that device's serial number: each waits on the other.
      const otherInsert = other.query(`insert into devices (serial_number, device_class_code) values ($1, 'NVR-N16')`, [serialNumber]);
      const response = await added;
      await otherInsert;
      await other.query('rollback');
      expect(response.statusCode, response.body).toBe(503);
      expect(response.headers['retry-after']).toBe('1');
      expect(response.json()).toMatchObject({ code: 503, key: 'error.writeCollided', data: null });
      expect(await count(sql`select count(*)::int as n from devices where serial_number = ${serialNumber}`)).toBe(0);
      // Sent again, the same call goes through.
      const again = await t.injectAs(admin, { method: 'POST', url: '/api/Device/Add', payload: { serialNumber, deviceClassCode: 'NVR-N16', state: 1, schoolId } });
      expect(again.statusCode, again.body).toBe(200);
    } finally {
      await other.end();
    }
  });
});
