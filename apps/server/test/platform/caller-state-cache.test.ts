import { frameOf } from '@campus/contract';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app.js';
import { createDatabase, type DatabaseHandle } from '../../src/db/client.js';
import { grants, schools, users } from '../../src/db/schema/index.js';
import { cachedCallerState } from '../../src/platform/caller-state.js';
import { probesUserKey } from '../../src/platform/probes.js';
import { setSetting } from '../../src/platform/settings.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { grantEverything, schoolIdsOf, userIdOf } from '../resources/fixtures.js';

/**
 * A caller's grant, scope and probes are kept in memory between calls (platform/caller-state.ts)
 * while the caller-state version read with the session is unchanged. These tests change what a
 * state is read from behind the API's back — straight in the database, as a job or psql would — and
 * expect the very next call to see it.
 */
let t: TestApp;
let agent1: string;
let agent1Id: number;

beforeAll(async () => {
  t = await createTestApp();
  await grantEverything(t, 'agent1');
  agent1 = await t.loginAs('agent1');
  agent1Id = await userIdOf(t, 'agent1');
});
afterAll(() => t.close());

const searchSchools = (token: string) => t.injectAs(token, { method: 'POST', url: '/api/School/Search', payload: { pageSize: 100 } });
const stateVersion = async () => {
  const [row] = await t.db.select({ version: sql<string>`version` }).from(sql`caller_state_version`);
  return Number(row!.version);
};

describe('the caller-state cache', () => {
  it('answers the same state while the version holds, and reads again when it moves', async () => {
    const user = { id: agent1Id, type: 'agent' as const, parentId: null };
    const now = t.clock.now().getTime();
    const first = cachedCallerState(t.db, user, 41, now);
    expect(cachedCallerState(t.db, user, 41, now + 1000)).toBe(first);
    const moved = cachedCallerState(t.db, user, 42, now + 1000);
    expect(moved).not.toBe(first);
    // Past its age limit a state is read again even at the same version.
    expect(cachedCallerState(t.db, user, 42, now + 10 * 60_000)).not.toBe(moved);
    // The same id as another kind of account (a changed type) is another state.
    expect(cachedCallerState(t.db, { ...user, type: 'child', parentId: 1 }, 42, now + 10 * 60_000)).not.toBe(moved);
  });

  it('a grant row deleted in the database takes the frame away at the next call', async () => {
    expect((await searchSchools(agent1)).statusCode).toBe(200);
    const before = await stateVersion();
    const frameId = frameOf('schoolManage').fixedId;
    const [saved] = await t.db.delete(grants).where(and(eq(grants.subjectType, 'user'), eq(grants.userId, agent1Id), eq(grants.frameId, frameId))).returning();
    expect(saved).toBeDefined();
    expect(await stateVersion()).toBeGreaterThan(before);
    expect((await searchSchools(agent1)).statusCode).toBe(403);
    await t.db.insert(grants).values(saved!);
    expect((await searchSchools(agent1)).statusCode).toBe(200);
  });

  it('a school handed to another agent in the database leaves the scope at the next call', async () => {
    const [schoolId] = await schoolIdsOf(t, 'agent1');
    const idsSeen = async () => ((await searchSchools(agent1)).json().data.items as { id: number }[]).map((row) => row.id);
    expect(await idsSeen()).toContain(schoolId);
    await t.db.update(schools).set({ agentId: await userIdOf(t, 'agent2') }).where(eq(schools.id, schoolId!));
    expect(await idsSeen()).not.toContain(schoolId);
    expect((await t.injectAs(agent1, { method: 'GET', url: `/api/School/Get?id=${schoolId}` })).statusCode).toBe(404);
    await t.db.update(schools).set({ agentId: agent1Id }).where(eq(schools.id, schoolId!));
    expect(await idsSeen()).toContain(schoolId);
  });

  it('a probe setting written in the database is answered at the next call', async () => {
    const probes = async () => (await t.injectAs(agent1, { method: 'GET', url: '/api/User/GetVisibilityProbes' })).json().data;
    expect((await probes()).hideAmountColumns).toBe(false);
    await setSetting(t.db, probesUserKey(agent1Id), { hideAmountColumns: true });
    expect((await probes()).hideAmountColumns).toBe(true);
    await setSetting(t.db, probesUserKey(agent1Id), {});
    expect((await probes()).hideAmountColumns).toBe(false);
  });

  it('keeps the version when nothing a state is read from changes', async () => {
    const before = await stateVersion();
    // A login writes the account's last login time: not something a state is read from.
    await t.db.update(users).set({ lastLoginAt: new Date() }).where(eq(users.id, agent1Id));
    await t.db.update(schools).set({ schoolName: 'renamed' }).where(eq(schools.id, (await schoolIdsOf(t, 'agent2'))[0]!));
    expect(await stateVersion()).toBe(before);
  });
});

/** Two instances on one database: a change made through one is seen by the other's next call. */
describe.skipIf(process.env.TEST_DB !== 'postgres')('the caller-state cache across two instances', () => {
  let b: App;
  let bDatabase: DatabaseHandle;
  beforeAll(async () => {
    bDatabase = await createDatabase(t.env);
    b = await buildApp({ env: t.env, database: bDatabase, clock: t.clock });
    await b.ready();
  });
  afterAll(async () => {
    await b?.close();
    await bDatabase?.close();
  });

  it('a grant saved on A answers 403 on B at the next call, and a school moved on A leaves B’s scope', async () => {
    const admin = await t.loginAs('admin');
    const onB = (url: string) => b.inject({ method: 'POST', url, payload: { pageSize: 100 }, headers: { authorization: `Bearer ${agent1}` } });
    expect((await onB('/api/School/Search')).statusCode).toBe(200);
    const saved = await t.injectAs(admin, { method: 'POST', url: '/api/Permission/SaveGrant', payload: { userId: agent1Id, frames: [{ frameId: frameOf('studentInfo').fixedId, buttons: [] }] } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await onB('/api/School/Search')).statusCode).toBe(403);
    await t.db.delete(grants).where(and(eq(grants.subjectType, 'user'), eq(grants.userId, agent1Id)));
    await grantEverything(t, 'agent1');
    const found = await onB('/api/School/Search');
    expect(found.statusCode).toBe(200);

    const [schoolId] = await schoolIdsOf(t, 'agent1');
    expect((found.json().data.items as { id: number }[]).map((row) => row.id)).toContain(schoolId);
    // Through A's connections: B's cached scope must not survive it.
    await t.db.update(schools).set({ agentId: await userIdOf(t, 'agent2') }).where(eq(schools.id, schoolId!));
    expect(((await onB('/api/School/Search')).json().data.items as { id: number }[]).map((row) => row.id)).not.toContain(schoolId);
    await t.db.update(schools).set({ agentId: agent1Id }).where(eq(schools.id, schoolId!));
  });
});
