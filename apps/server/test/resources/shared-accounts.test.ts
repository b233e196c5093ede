/**
 * An external account bound to schools of two agents is shared: either agent sees it in its list,
 * but neither may change, disable, delete or take it over (issue 8: one agent updated and deleted an
 * account another agent's school still used). An agent manages an external account only when every
 * school it is bound to lies in the agent's scope; otherwise the answer is the 404 of a row out of scope.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema/index.js';
import { md5Hex } from '../../src/platform/passwords.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { schoolIdsOf, unique } from './fixtures.js';

type Row = Record<string, unknown>;

let t: TestApp;
let admin: string;
let agent1: string;
let child1: string;
let own: number[];
let foreign: number[];

beforeAll(async () => {
  t = await createTestApp();
  [admin, agent1, child1] = await Promise.all([t.loginAs('admin'), t.loginAs('agent1'), t.loginAs('child1')]);
  [own, foreign] = await Promise.all([schoolIdsOf(t, 'agent1'), schoolIdsOf(t, 'agent2')]);
});
afterAll(() => t.close());

const call = (token: string, method: 'GET' | 'POST', url: string, payload?: unknown) =>
  t.injectAs(token, { method, url, ...(payload === undefined ? {} : { payload: payload as Row }) });

/** A new external account bound to the given schools, added by the company admin. */
async function externalBoundTo(schoolIds: number[]): Promise<number> {
  const n = unique();
  const added = await call(admin, 'POST', '/api/ExternalUser/Add', {
    loginName: `shared${n}`,
    password: md5Hex(`Shared@${n}`),
    name: `共享${n}`,
    phoneNum: '13500004444',
    schoolIds,
    mustChangePassword: false,
  });
  expect(added.statusCode, added.body).toBe(200);
  return added.json().data.id;
}

const stored = async (id: number) => (await t.db.select().from(users).where(eq(users.id, id)))[0];

describe('an external account shared by two agents', () => {
  it.each([
    ['the agent', () => agent1],
    ['its child account', () => child1],
  ])('is listed for %s but refused to Update, UpdateEnabled and BatchDelete as out of scope', async (_who, token) => {
    const id = await externalBoundTo([own[0]!, foreign[0]!]);
    const before = await stored(id);

    const listed = await call(token(), 'POST', '/api/ExternalUser/Search', { pageSize: 200 });
    expect(listed.json().data.items.map((row: Row) => row.id)).toContain(id);
    const seen = (await call(token(), 'GET', `/api/ExternalUser/Get?id=${id}`)).json().data;
    expect(seen.schoolIds).toEqual([own[0]]);

    const update = await call(token(), 'POST', '/api/ExternalUser/Update', { id, version: seen.version, name: 'taken over', password: md5Hex('Taken@1') });
    const disable = await call(token(), 'POST', '/api/ExternalUser/UpdateEnabled', { ids: [id], value: false });
    const remove = await call(token(), 'POST', '/api/ExternalUser/BatchDelete', [id]);
    const missing = await call(token(), 'POST', '/api/ExternalUser/BatchDelete', [2_147_000_000]);
    for (const refused of [update, disable, remove]) {
      expect(refused.statusCode, refused.body).toBe(404);
      expect(refused.json().code).toBe(missing.json().code);
    }
    // Nothing changed: name, password, enabled flag and the row itself.
    expect(await stored(id)).toEqual(before);
  });

  it('stays manageable by the agent whose scope holds every school it is bound to', async () => {
    const id = await externalBoundTo([own[0]!, own[1]!]);
    const seen = (await call(agent1, 'GET', `/api/ExternalUser/Get?id=${id}`)).json().data;
    expect((await call(agent1, 'POST', '/api/ExternalUser/Update', { id, version: seen.version, name: 'renamed' })).statusCode).toBe(200);
    expect((await call(agent1, 'POST', '/api/ExternalUser/UpdateEnabled', { ids: [id], value: false })).statusCode).toBe(200);
    expect((await call(agent1, 'POST', '/api/ExternalUser/BatchDelete', [id])).statusCode).toBe(200);
  });

  it('stays manageable by company staff', async () => {
    const id = await externalBoundTo([own[0]!, foreign[0]!]);
    const seen = (await call(admin, 'GET', `/api/ExternalUser/Get?id=${id}`)).json().data;
    expect((await call(admin, 'POST', '/api/ExternalUser/Update', { id, version: seen.version, name: 'renamed' })).statusCode).toBe(200);
  });
});
