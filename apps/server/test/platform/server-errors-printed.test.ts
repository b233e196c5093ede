import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

// The test app's onError hook (helpers/test-app.ts, printServerErrors) is added after buildApp has
// registered the route plugins. Fastify hands a hook added before ready to the encapsulated children
// already registered, so a real route's unexpected 500 is printed: a missing table makes one here.
describe('an unexpected failure of a real route in the test app', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('is printed with its method and address when the route lives in an encapsulated plugin (resourceRoutes)', async () => {
    const token = await t.loginAs('admin');
    // A database of this test's own: nothing else reads the table.
    await t.db.execute(sql`drop table sales_teams cascade`);
    const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const response = await t.injectAs(token, { method: 'POST', url: '/api/SalesTeam/Search?view=salesTeam', payload: { pageIndex: 1, pageSize: 20 } });
      expect(response.statusCode).toBe(500);
      expect(printed).toHaveBeenCalledWith(expect.stringMatching(/^server error on POST \/api\/SalesTeam\/Search\?view=salesTeam \(/), expect.any(Error));
    } finally {
      printed.mockRestore();
    }
  });

  it('is not printed when the route refuses the client (an error the handler answers as a 4xx)', async () => {
    const token = await t.loginAs('admin');
    const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const response = await t.injectAs(token, { method: 'POST', url: '/api/SalesTeam/Search?view=salesTeam', payload: { pageIndex: 'one' } });
      expect(response.statusCode).toBe(400);
      expect(printed).not.toHaveBeenCalled();
    } finally {
      printed.mockRestore();
    }
  });
});
