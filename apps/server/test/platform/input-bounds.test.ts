/**
 * Input the database cannot hold is refused at the door with a field error (issue 8, the outside
 * probe): integers past a 32-bit column, and text carrying a NUL character. Before, both reached
 * PostgreSQL and answered 500 — on Export after a 200 had already started.
 */
import { API_PATHS, RESOURCES, isLogFamily, type ResourceDef } from '@campus/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { viewQuery } from '../resources/fixtures.js';

const TOO_BIG = 2 ** 31;

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.loginAs('admin');
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
  t.injectAs(admin, { method, url, ...(payload === undefined ? {} : { payload: payload as object }) });

/** The envelope of a validation error naming `path`. */
function expectFieldError(response: LightMyRequestResponse, path: string): void {
  expect(response.statusCode, response.body).toBe(400);
  const body = response.json();
  expect(body.code).toBe(400);
  expect(body.data.errors.map((e: { path: string }) => e.path)).toContain(path);
}

const families = Object.values(RESOURCES) as ResourceDef[];
/** A family's first filter that is a reference by id (a 32-bit column). */
const referenceFilterOf = (def: ResourceDef) =>
  Object.entries(def.fields).find(([, f]) => f.filter === 'equals' && f.kind === 'reference' && !f.key)?.[0];

describe('integers past their 32-bit column', () => {
  it.each(families.map((def) => [def.name, def] as const))('%s: Get refuses an id of 2^31 as a field error', async (_name, def) => {
    expectFieldError(await call('GET', `/api/${def.name}/Get?id=${TOO_BIG}&${viewQuery(def)}`), 'id');
  });

  it('refuses a reference filter, a list of ids and a toggle of 2^31', async () => {
    expectFieldError(await call('POST', '/api/Student/Search', { schoolId: TOO_BIG }), 'schoolId');
    expectFieldError(await call('POST', '/api/Student/BatchDelete', [1, TOO_BIG]), '1');
    expectFieldError(await call('POST', '/api/CompanyUser/UpdateEnabled', { ids: [TOO_BIG], value: true }), 'ids.0');
    expectFieldError(await call('GET', `/api/Student/Options?schoolId=${TOO_BIG}`), 'schoolId');
    expectFieldError(await call('POST', '/api/Student/Update', { id: TOO_BIG, version: 1 }), 'id');
  });

  it('refuses a reference of 2^31 in a written row', async () => {
    expectFieldError(await call('POST', '/api/Student/Add', { schoolId: TOO_BIG, name: 'x' }), 'schoolId');
  });

  it.each(families.filter((def) => !isLogFamily(def) && referenceFilterOf(def)).map((def) => [def.name, def] as const))(
    '%s: Export answers the envelope before any byte of a workbook',
    async (_name, def) => {
      const response = await call('GET', `/api/${def.name}/Export?${referenceFilterOf(def)}=${TOO_BIG}&${viewQuery(def)}`);
      expectFieldError(response, referenceFilterOf(def)!);
    },
  );

  it("refuses a log cursor whose id or time its columns cannot hold, as the cursor's error", async () => {
    const cursor = (ms: number, id: number) => Buffer.from(JSON.stringify(['n', ms, id])).toString('base64url');
    expectFieldError(await call('POST', '/api/OperationLog/Search', { cursor: cursor(Date.now(), TOO_BIG) }), 'cursor');
    expectFieldError(await call('POST', '/api/OperationLog/Search', { cursor: cursor(9e15, 1) }), 'cursor');
    expectFieldError(await call('POST', '/api/OperationLog/Search', { cursor: cursor(-1e15, 1) }), 'cursor');
  });

  it('refuses ids of 2^31 in hand-written routes', async () => {
    expectFieldError(await call('GET', `${API_PATHS.getGrant}?userId=${TOO_BIG}`), 'userId');
    expectFieldError(await call('POST', API_PATHS.resetUserGrant, { userId: TOO_BIG }), 'userId');
    expectFieldError(await call('GET', `${API_PATHS.salesTeamMembers}?id=${TOO_BIG}`), 'id');
    expectFieldError(await call('POST', API_PATHS.endSession, { id: TOO_BIG }), 'id');
  });
});

describe('dates in the year 0000, which PostgreSQL has not', () => {
  it('refuses them in date and date-time filters, on Search and on Export', async () => {
    expectFieldError(await call('POST', '/api/DeviceDelivery/Search?view=equipmentDelivery', { installationTimeTo: '0000-02-29T23:15:15+00:50' }), 'installationTimeTo');
    expectFieldError(await call('GET', '/api/DeviceDelivery/Export?view=equipmentDelivery&installationTimeFrom=0000-01-01T00:00:00Z'), 'installationTimeFrom');
    expect((await call('POST', '/api/DeviceDelivery/Search?view=equipmentDelivery', { installationTimeTo: '0001-01-01T00:00:00Z' })).statusCode).toBe(200);
  });
});

describe('text with a NUL character', () => {
  it('is refused in a Search filter, naming the filter', async () => {
    expectFieldError(await call('POST', '/api/Student/Search', { name: 'a\u0000b' }), 'name');
  });

  it('is refused in a query string', async () => {
    expectFieldError(await call('GET', '/api/School/Options?keyword=a%00b'), 'keyword');
  });

  it('is refused in a written row, even inside a list', async () => {
    const [school] = (await call('POST', '/api/School/Search', { pageSize: 1 })).json().data.items;
    expectFieldError(await call('POST', '/api/Student/Add', { schoolId: school.id, name: 'x\u0000' }), 'name');
    expectFieldError(await call('POST', '/api/SalesTeam/Search', { sortField: 'id\u0000' }), 'sortField');
  });

  it('is refused in the profile update', async () => {
    expectFieldError(await call('POST', API_PATHS.updateLoginUserInfo, { name: 'admin\u0000' }), 'name');
    const profile = (await call('GET', API_PATHS.loginUserInfo)).json().data;
    expect(profile.name ?? profile.Name).not.toContain('\u0000');
  });
});
