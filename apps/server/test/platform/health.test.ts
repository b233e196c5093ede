import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

describe('health, readiness and request ids', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers GET /healthz without touching the database', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ code: 200, message: 'ok', data: { status: 'alive' } });
  });

  it('answers GET /readyz ready once the database answers and every migration is applied', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual({ status: 'ready', database: 'reachable', migrations: 'applied' });
  });

  it('answers 503 with Retry-After while the newest migration is not applied', async () => {
    type MigrationRow = { id: number; hash: string; created_at: string };
    const deleted = (await t.db.execute(sql`delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations) returning id, hash, created_at`)) as unknown as { rows: MigrationRow[] };
    const [newest] = deleted.rows;
    try {
      const response = await t.app.inject({ method: 'GET', url: '/readyz', headers: { 'accept-language': 'en' } });
      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBe('5');
      expect(response.json()).toMatchObject({ code: 503, message: 'not ready: the database does not answer or is not migrated', data: { status: 'not ready', database: 'reachable', migrations: 'pending' } });
    } finally {
      await t.db.execute(sql`insert into drizzle.__drizzle_migrations (id, hash, created_at) values (${newest!.id}, ${newest!.hash}, ${newest!.created_at})`);
    }
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });

  it('echoes a sane incoming x-request-id and replaces any other with a fresh one', async () => {
    const kept = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'lb-7f3a_01' } });
    expect(kept.headers['x-request-id']).toBe('lb-7f3a_01');
    for (const bad of ['two words', 'x'.repeat(65), 'a\u00e9b', '']) {
      const replaced = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': bad } });
      expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  });

  it('puts the request id on error answers too, the same id a 404 and a 401 carry', async () => {
    const notFound = await t.app.inject({ method: 'GET', url: '/api/NoSuchThing/Search', headers: { 'x-request-id': 'trace-404' } });
    expect(notFound.statusCode).toBe(404);
    expect(notFound.headers['x-request-id']).toBe('trace-404');
    const unauthorised = await t.app.inject({ method: 'GET', url: '/api/User/GetLoginUserInfo', headers: { 'x-request-id': 'trace-401' } });
    expect(unauthorised.statusCode).toBe(401);
    expect(unauthorised.headers['x-request-id']).toBe('trace-401');
  });
});
