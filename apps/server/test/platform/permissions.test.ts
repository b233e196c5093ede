import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema/index.js';
import { requireFrame } from '../../src/platform/permissions.js';
import { setSignCardMode } from '../../src/platform/settings.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

describe('requireFrame guard', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      extend(app) {
        // Test-only routes standing in for the resource calls that will declare their frame and button.
        app.post('/api/Test/SchoolDelete', { onRequest: requireFrame('schoolManage', 'delete') }, async () => ({ code: 200, message: 'ok', data: null }));
        app.get('/api/Test/SchoolRead', { preHandler: requireFrame('schoolManage') }, async () => ({ code: 200, message: 'ok', data: null }));
        app.get('/api/Test/GateCodes', { onRequest: requireFrame('codeManageA') }, async () => ({ code: 200, message: 'ok', data: null }));
      },
    });
  });
  afterAll(() => t.close());

  const call = async (loginName: string, method: 'GET' | 'POST', url: string) => t.injectAs(await t.loginAs(loginName), { method, url });

  it('lets a caller holding the frame and the button through', async () => {
    expect((await call('admin', 'POST', '/api/Test/SchoolDelete')).statusCode).toBe(200);
  });

  it('answers HTTP 403 when the caller holds the frame but not the button', async () => {
    const response = await call('agent1', 'POST', '/api/Test/SchoolDelete');
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ code: 403, message: 'access denied', key: 'error.forbidden', data: null });
    expect((await call('agent1', 'GET', '/api/Test/SchoolRead')).statusCode).toBe(200);
  });

  it('answers HTTP 403 when the caller lacks the frame', async () => {
    expect((await call('external1', 'GET', '/api/Test/SchoolRead')).statusCode).toBe(403);
  });

  it('blocks the code-management calls while sign-card mode is off', async () => {
    expect((await call('admin', 'GET', '/api/Test/GateCodes')).statusCode).toBe(200);
    await setSignCardMode(t.db, false);
    expect((await call('admin', 'GET', '/api/Test/GateCodes')).statusCode).toBe(403);
    await setSignCardMode(t.db, true);
  });

  it('refuses unknown frames and undeclared buttons when routes are declared', () => {
    expect(() => requireFrame('noSuchPage')).toThrow(/Unknown frame/);
    expect(() => requireFrame('index', 'delete')).toThrow(/declares no button/);
  });
});

describe('error envelope', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      extend(app) {
        app.get('/api/Test/Crash', async () => {
          throw new Error('boom');
        });
        app.post('/api/Test/DuplicateUser', async () => {
          await app.db.insert(users).values({ loginName: 'admin', passwordHash: 'x', type: 'company', name: 'Copy' });
          return { code: 200, message: 'ok', data: null };
        });
        app.post('/api/Test/ChildWithoutAgent', async () => {
          await app.db.insert(users).values({ loginName: 'orphan', passwordHash: 'x', type: 'child', name: 'Orphan', parentId: 999_999 });
          return { code: 200, message: 'ok', data: null };
        });
      },
    });
  });
  afterAll(() => t.close());

  it('answers a 500 with the request id only', async () => {
    const response = await t.injectAs(await t.loginAs('admin'), { method: 'GET', url: '/api/Test/Crash', headers: { 'x-request-id': 'req-42' } });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ code: 500, message: 'internal server error', key: 'error.internal', data: { requestId: 'req-42' } });
  });

  it('turns a unique violation into a 400 "already exists" on the field', async () => {
    const response = await t.injectAs(await t.loginAs('admin'), { method: 'POST', url: '/api/Test/DuplicateUser' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: 400,
      message: 'request error',
      key: 'error.request',
      data: { errors: [{ path: 'loginName', message: 'already exists', key: 'validation.alreadyExists' }] },
    });
  });

  it('turns a foreign-key violation into a 400 reference error', async () => {
    const response = await t.injectAs(await t.loginAs('admin'), { method: 'POST', url: '/api/Test/ChildWithoutAgent' });
    expect(response.statusCode).toBe(400);
    expect(response.json().data.errors).toEqual([{ path: 'parentId', message: 'refers to a record that does not exist', key: 'validation.missingReference' }]);
  });

  it('answers unknown /api paths with the 404 envelope', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/Nothing/Here' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ code: 404, message: 'address not found', data: { url: '/api/Nothing/Here' } });
  });

  it('answers malformed JSON with a 400 envelope', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/Account/Login_web', headers: { 'content-type': 'application/json' }, payload: '{oops' });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe(400);
  });

  it('serves the OpenAPI document at /api/docs without a session', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    expect(Object.keys(response.json().paths)).toEqual(expect.arrayContaining(['/api/Account/Login_web', '/api/Home/GetNavigationTree', '/api/User/GetLoginUserInfo']));
  });
});
