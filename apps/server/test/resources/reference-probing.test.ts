/**
 * A reference to another scope's row answers exactly what a reference to a missing row answers
 * (issue 8: Add with another agent's row answered a different message than a missing one, so rows
 * of other scopes could be probed). Generated over every family's writable references.
 */
import { API_PATHS, RESOURCES, isInForm, isLogFamily, type FieldDef, type ResourceDef } from '@campus/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { grantEverything, schoolIdsOf, userIdOf, validAddBody, viewQuery } from './fixtures.js';

type Row = Record<string, unknown>;
type Reference = Extract<FieldDef, { kind: 'reference' }>;

/** An id no row has, within the 32-bit column. */
const MISSING_ID = 2_147_000_000;

let t: TestApp;
let admin: string;
let agent1: string;
let agent1School: number;
let agent1Id: number;

beforeAll(async () => {
  t = await createTestApp();
  await grantEverything(t, 'agent1');
  [admin, agent1] = await Promise.all([t.loginAs('admin'), t.loginAs('agent1')]);
  agent1School = (await schoolIdsOf(t, 'agent1'))[0]!;
  agent1Id = await userIdOf(t, 'agent1');
});
afterAll(() => t.close());

const call = (token: string, method: 'GET' | 'POST', url: string, payload?: unknown) =>
  t.injectAs(token, { method, url, ...(payload === undefined ? {} : { payload: payload as Row }) });

/**
 * A row agent1 cannot name: one the company admin's picker offers and agent1's does not (nor agent1
 * itself, which it may always name). Accounts by type are picked through /api/User/Options.
 */
async function outOfScopeId(field: Reference): Promise<number | undefined> {
  const url = field.family === 'User' ? `${API_PATHS.accountOptions}?type=${String(field.optionsFilter?.type)}&limit=100` : `/api/${field.family}/Options?limit=100`;
  const ids = async (token: string) => {
    const response = await call(token, 'GET', url);
    return response.statusCode === 200 ? (response.json().data as { value: number }[]).map((option) => option.value) : [];
  };
  const reachable = new Set([...(await ids(agent1)), agent1Id]);
  return (await ids(admin)).find((id) => !reachable.has(id));
}

/** What a client can tell from an answer. */
const observable = (response: LightMyRequestResponse) => {
  const body = response.json();
  return { status: response.statusCode, code: body.code, message: body.message, errors: body.data?.errors ?? null };
};

/** Writable, chosen references by id of non-global families: each family and field once. */
const cases = (Object.values(RESOURCES) as ResourceDef[])
  .filter((def) => !isLogFamily(def))
  .flatMap((def) =>
    Object.entries(def.fields)
      .filter((entry): entry is [string, Reference] => {
        const [, field] = entry;
        return field.kind === 'reference' && !field.key && isInForm(field) && !field.readOnly && RESOURCES[field.family]?.scope.via !== 'global';
      })
      .map(([name, field]) => [`${def.name}.${name}`, def, name, field] as const),
  );

describe('a reference out of scope answers like a missing one', () => {
  const value = (field: Reference, id: number) => (field.multiple ? [id] : id);

  it.each(cases)('%s on Add', async (_case, def, name, field) => {
    const foreign = await outOfScopeId(field);
    if (foreign === undefined) return; // nothing of another scope to name
    // A fresh body each time: the first Add may succeed and take the body's unique values.
    const add = async (id: number) => call(agent1, 'POST', `/api/${def.name}/Add?${viewQuery(def)}`, { ...(await validAddBody(t, def, agent1School)), [name]: value(field, id) });
    const outside = await add(foreign);
    const missing = await add(MISSING_ID);
    expect(observable(outside)).toEqual(observable(missing));
  });

  it.each(cases)('%s on Update', async (_case, def, name, field) => {
    const foreign = await outOfScopeId(field);
    if (foreign === undefined) return;
    const update = async (id: number) => {
      // A row agent1 wrote itself; the company fixture of some families names what agent1 may not (another agent).
      const added = await call(agent1, 'POST', `/api/${def.name}/Add?${viewQuery(def)}`, await validAddBody(t, def, agent1School));
      if (added.statusCode !== 200) return undefined;
      return call(agent1, 'POST', `/api/${def.name}/Update?${viewQuery(def)}`, { id: added.json().data.id, version: 1, [name]: value(field, id) });
    };
    const outside = await update(foreign);
    if (!outside) return;
    expect(observable(outside)).toEqual(observable((await update(MISSING_ID))!));
  });
});
