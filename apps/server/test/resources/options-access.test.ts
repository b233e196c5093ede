/**
 * `GET /api/{Family}/Options` answers only callers holding a page that shows the family or picks its
 * rows (issue 8: accounts without the page read licence codes, serial numbers, delivery numbers, sales
 * areas and teams through the pickers), and always within their scope.
 */
import { frameOf } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { grantReadOnly, schoolIdsOf } from './fixtures.js';

let t: TestApp;
let studentsOnly: string;
let reportOnly: string;
let agent1: string;

const frames = (...indexes: string[]) => indexes.map((index) => frameOf(index).fixedId);

beforeAll(async () => {
  t = await createTestApp();
  // sales2 holds only the student page: its form picks schools and classes, nothing else.
  await grantReadOnly(t, 'sales2', frames('studentInfo'));
  // sales1 holds only the product statistics report, whose filters pick product models.
  await grantReadOnly(t, 'sales1', frames('productStatistics'));
  [studentsOnly, reportOnly, agent1] = await Promise.all([t.loginAs('sales2'), t.loginAs('sales1'), t.loginAs('agent1')]);
});
afterAll(() => t.close());

const options = (token: string, family: string, query = '') => t.injectAs(token, { method: 'GET', url: `/api/${family}/Options${query}` });

describe('Options follow the pages', () => {
  it.each(['License', 'Device', 'DeviceDelivery', 'SalesArea', 'SalesTeam', 'DeviceClass', 'CompanyUser'])(
    'refuses %s to an account whose pages neither show nor pick it',
    async (family) => {
      const response = await options(studentsOnly, family);
      expect(response.statusCode, response.body).toBe(403);
      expect(response.json().code).toBe(403);
    },
  );

  it("answers the families the page's form references", async () => {
    for (const family of ['School', 'SchoolClass']) {
      const response = await options(studentsOnly, family);
      expect(response.statusCode, `${family}: ${response.body}`).toBe(200);
    }
  });

  it("answers the families a report's filters reference, and only those", async () => {
    expect((await options(reportOnly, 'DeviceClass', '?valueField=code')).statusCode).toBe(200);
    expect((await options(reportOnly, 'License')).statusCode).toBe(403);
  });

  it("keeps to the caller's scope", async () => {
    const own = new Set(await schoolIdsOf(t, 'agent1'));
    const response = await options(agent1, 'School', '?limit=100');
    expect(response.statusCode, response.body).toBe(200);
    const values = (response.json().data as { value: number }[]).map((option) => option.value);
    expect(values.length).toBeGreaterThan(0);
    expect(values.every((id) => own.has(id))).toBe(true);
  });
});
