import { API_PATHS, APP_MALL_PATHS, APP_PATHS, frameOf } from '@campus/contract';
import { and, eq, sql } from 'drizzle-orm';
import { recordSentStatements } from '../helpers/sent-statements.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createParentSession } from '../../src/app-channel/sessions.js';
import { buildApp, type App } from '../../src/app.js';
import { createDatabase, type DatabaseHandle } from '../../src/db/client.js';
import { grants, sessions } from '../../src/db/schema/index.js';
import { isCallerMemoryOn } from '../../src/platform/caller-memory.js';
import { createMemoryMessenger } from '../../src/platform/messenger.js';
import { hashToken } from '../../src/platform/sessions.js';
import { asParent, demoParents, type DemoParent } from '../app-channel/support.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { parentsWithAddresses, releasedCommodity } from '../mall/mall-fixtures.js';
import { grantEverything, userIdOf } from '../resources/fixtures.js';
import { isReachable, redisUrl } from '../helpers/redis.js';

const silent = { warn: () => undefined };

describe('when an instance keeps its callers in memory', () => {
  const postgresLike = { transport: 'postgres', listeningEpoch: () => 1 } as unknown as Parameters<typeof isCallerMemoryOn>[1];
  it('is on by default but under NODE_ENV=test, off by CALLER_MEMORY=0, and never without the database’s notices', () => {
    expect(isCallerMemoryOn({ NODE_ENV: 'production', CALLER_MEMORY: undefined }, postgresLike)).toBe(true);
    expect(isCallerMemoryOn({ NODE_ENV: 'test', CALLER_MEMORY: undefined }, postgresLike)).toBe(false);
    expect(isCallerMemoryOn({ NODE_ENV: 'test', CALLER_MEMORY: '1' }, postgresLike)).toBe(true);
    expect(isCallerMemoryOn({ NODE_ENV: 'production', CALLER_MEMORY: '0' }, postgresLike)).toBe(false);
    // In process (PGlite) there is no notice of the database: every call reads its session.
    expect(isCallerMemoryOn({ NODE_ENV: 'production', CALLER_MEMORY: '1' }, createMemoryMessenger(silent))).toBe(false);
  });
});

const transports: { name: string; env: Record<string, string> }[] = [{ name: 'PostgreSQL', env: {} }, ...((await isReachable(redisUrl)) ? [{ name: 'Redis', env: { REDIS_URL: redisUrl } }] : [])];

/**
 * Two instances on one PostgreSQL database, both keeping callers in memory: what one changes (or
 * psql does) must be refused on the other within the second, through the database's notices, whether
 * the instances' messages go through PostgreSQL or through Redis.
 */
describe.skipIf(process.env.TEST_DB !== 'postgres').each(transports)('callers kept in memory on two instances, messages through $name', ({ env }) => {
  let t: TestApp;
  let b: App;
  let bDatabase: DatabaseHandle;
  let admin: string;
  let agent1Id: number;

  beforeAll(async () => {
    t = await createTestApp({ env: { CALLER_MEMORY: '1', ...env } });
    bDatabase = await createDatabase(t.env);
    b = await buildApp({ env: t.env, database: bDatabase, clock: t.clock });
    await b.ready();
    await Promise.all([t.app.messenger.ready(), b.messenger.ready()]);
    await grantEverything(t, 'agent1');
    admin = await t.loginAs('admin');
    agent1Id = await userIdOf(t, 'agent1');
  });
  afterAll(async () => {
    await b?.close();
    await bDatabase?.close();
    await t?.close();
  });

  const onB = (token: string) => b.inject({ method: 'POST', url: '/api/School/Search', payload: { pageSize: 20 }, headers: { authorization: `Bearer ${token}` } });

  /** The status B answers once it differs from `from`, polling for at most a second. */
  async function statusWithinASecond(token: string, from: number): Promise<number> {
    const deadline = performance.now() + 1000;
    for (;;) {
      const status = (await onB(token)).statusCode;
      if (status !== from || performance.now() > deadline) return status;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  it('keeps the session in memory: a change no notice announces is not read again', async () => {
    expect(b.callerMemory).not.toBeNull();
    const agent1 = await t.loginAs('agent1');
    expect((await onB(agent1)).statusCode).toBe(200);
    // An UPDATE of a session is announced by nothing (only deletions are): B answers from memory.
    await t.db.update(sessions).set({ expiresAt: new Date(t.clock.now().getTime() - 1000) }).where(eq(sessions.tokenHash, hashToken(agent1)));
    expect((await onB(agent1)).statusCode).toBe(200);
    // A fresh instance with nothing kept reads the row and finds it expired.
    expect((await t.injectAs(agent1, { method: 'POST', url: '/api/School/Search', payload: {} })).statusCode).toBe(401);
  });

  it('a grant revoked on A is refused on B within the second', async () => {
    const agent1 = await t.loginAs('agent1');
    expect((await onB(agent1)).statusCode).toBe(200);
    expect((await onB(agent1)).statusCode).toBe(200);
    const saved = await t.injectAs(admin, { method: 'POST', url: '/api/Permission/SaveGrant', payload: { userId: agent1Id, frames: [{ frameId: frameOf('studentInfo').fixedId, buttons: [] }] } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await statusWithinASecond(agent1, 200)).toBe(403);
    await t.db.delete(grants).where(and(eq(grants.subjectType, 'user'), eq(grants.userId, agent1Id)));
    await grantEverything(t, 'agent1');
    expect(await statusWithinASecond(agent1, 403)).toBe(200);
  });

  it('a session ended on A (log-out) is refused on B within the second', async () => {
    const agent1 = await t.loginAs('agent1');
    expect((await onB(agent1)).statusCode).toBe(200);
    expect((await onB(agent1)).statusCode).toBe(200);
    const out = await t.injectAs(agent1, { method: 'POST', url: API_PATHS.logout });
    expect(out.statusCode, out.body).toBe(200);
    expect(await statusWithinASecond(agent1, 200)).toBe(401);
  });

  it('a session deleted in the database (psql, a job) is refused on both within the second', async () => {
    const agent1 = await t.loginAs('agent1');
    expect((await onB(agent1)).statusCode).toBe(200);
    await bDatabase.db.execute(sql`delete from sessions where token_hash = ${hashToken(agent1)}`);
    expect(await statusWithinASecond(agent1, 200)).toBe(401);
  });

  it('an account disabled on A is refused on B within the second', async () => {
    const agent1 = await t.loginAs('agent1');
    expect((await onB(agent1)).statusCode).toBe(200);
    await t.db.execute(sql`update users set enabled = false where id = ${agent1Id}`);
    try {
      expect(await statusWithinASecond(agent1, 200)).toBe(401);
    } finally {
      await t.db.execute(sql`update users set enabled = true where id = ${agent1Id}`);
    }
  });
});

/**
 * The parent app's sessions are kept the same way (app-channel/sessions.ts): what a kept session
 * answers — the session, the parent's enabled flag, its children — must follow the database on every
 * instance within the second (migration 0063's notices), and a sign-out at once on its own instance.
 */
describe.skipIf(process.env.TEST_DB !== 'postgres')('parent sessions kept in memory on two instances', () => {
  let t: TestApp;
  let b: App;
  let bDatabase: DatabaseHandle;
  let parent: DemoParent;

  beforeAll(async () => {
    t = await createTestApp({ env: { CALLER_MEMORY: '1' } });
    bDatabase = await createDatabase(t.env);
    b = await buildApp({ env: t.env, database: bDatabase, clock: t.clock });
    await b.ready();
    await Promise.all([t.app.messenger.ready(), b.messenger.ready()]);
    // The first parent of a school has two children (support.ts).
    parent = (await demoParents(t)).find((candidate) => candidate.childIds.length >= 2)!;
  });
  afterAll(async () => {
    await b?.close();
    await bDatabase?.close();
    await t?.close();
  });

  const newToken = async () => (await createParentSession(t.db, { parentId: parent.id, now: t.clock.now() })).token;
  const childrenOn = (app: App, token: string) => app.inject({ method: 'GET', url: APP_PATHS.children, headers: { authorization: `Bearer ${token}` } });

  /** What `read` answers once it differs from `from`, polling for at most a second. */
  async function withinASecond<T>(read: () => Promise<T>, from: T): Promise<T> {
    const deadline = performance.now() + 1000;
    for (;;) {
      const value = await read();
      if (value !== from || performance.now() > deadline) return value;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  it('keeps the session in memory: a change no notice announces is not read again', async () => {
    const token = await newToken();
    expect((await childrenOn(b, token)).statusCode).toBe(200);
    // An UPDATE of a session's times is announced by nothing: B answers from memory, A reads the row.
    await t.db.execute(sql`update parent_sessions set expires_at = ${new Date(t.clock.now().getTime() - 1000).toISOString()}::timestamptz where token_hash = ${hashToken(token)}`);
    expect((await childrenOn(b, token)).statusCode).toBe(200);
    expect((await childrenOn(t.app, token)).statusCode).toBe(401);
  });

  it('a sign-out is refused at once on its instance and within the second on the other', async () => {
    const token = await newToken();
    expect((await childrenOn(t.app, token)).statusCode).toBe(200);
    expect((await childrenOn(b, token)).statusCode).toBe(200);
    const out = await asParent(t, token, { method: 'POST', url: APP_PATHS.signOut });
    expect(out.statusCode, out.body).toBe(200);
    expect((await childrenOn(t.app, token)).statusCode).toBe(401);
    expect(await withinASecond(async () => (await childrenOn(b, token)).statusCode, 200)).toBe(401);
  });

  it('a session deleted in the database is refused within the second', async () => {
    const token = await newToken();
    expect((await childrenOn(b, token)).statusCode).toBe(200);
    await t.db.execute(sql`delete from parent_sessions where token_hash = ${hashToken(token)}`);
    expect(await withinASecond(async () => (await childrenOn(b, token)).statusCode, 200)).toBe(401);
  });

  it('a parent disabled in the console is refused within the second', async () => {
    const token = await newToken();
    expect((await childrenOn(b, token)).statusCode).toBe(200);
    await t.db.execute(sql`update parents set enabled = false where id = ${parent.id}`);
    try {
      expect(await withinASecond(async () => (await childrenOn(b, token)).statusCode, 200)).toBe(401);
    } finally {
      await t.db.execute(sql`update parents set enabled = true where id = ${parent.id}`);
    }
  });

  it('an order attempt of a kept parent sends its own statements only: two when placed, one when sold out', async () => {
    const commodityId = await releasedCommodity(t, { stock: 1 });
    const [first, late] = await parentsWithAddresses(t, parent.schoolId, 2);
    const tokens = await Promise.all([first!, late!].map(async (buyer) => (await createParentSession(t.db, { parentId: buyer.parentId, now: t.clock.now() })).token));
    // Each parent's first call (its commodity's page) reads its session and keeps it.
    for (const token of tokens) expect((await childrenOn(t.app, token)).statusCode).toBe(200);
    const place = (token: string, addressId: number) =>
      asParent(t, token, { method: 'POST', url: APP_MALL_PATHS.placeOrder, payload: { lines: [{ commodityId, quantity: 1 }], addressId } });
    const { sent, stop } = recordSentStatements();
    try {
      expect((await place(tokens[0]!, first!.addressId)).statusCode).toBe(200);
      const placing = sent.splice(0);
      expect((await place(tokens[1]!, late!.addressId)).statusCode).toBe(400);
      const refusing = sent.splice(0);
      expect(placing, placing.join('\n')).toHaveLength(2);
      expect(refusing, refusing.join('\n')).toHaveLength(1);
    } finally {
      stop();
    }
  });

  it('a child unlinked from the parent is gone from its calls within the second', async () => {
    const token = await newToken();
    const count = async () => ((await childrenOn(b, token)).json().data as unknown[]).length;
    expect(await count()).toBe(parent.childIds.length);
    const childId = parent.childIds.at(-1)!;
    await t.db.execute(sql`delete from parent_students where parent_id = ${parent.id} and student_id = ${childId}`);
    try {
      expect(await withinASecond(count, parent.childIds.length)).toBe(parent.childIds.length - 1);
    } finally {
      await t.db.execute(sql`insert into parent_students (parent_id, student_id) values (${parent.id}, ${childId})`);
    }
  });
});
