import { API_PATHS } from '@campus/contract';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app.js';
import { createDatabase, type DatabaseHandle } from '../../src/db/client.js';
import { ACCOUNT_LOCKOUT } from '../../src/platform/login-throttle.js';
import { md5Hex } from '../../src/platform/passwords.js';
import { CAPTCHA_CODE, createTestApp, demoPassword, type TestApp } from '../helpers/test-app.js';

/**
 * ARCHITECTURE "Scale beyond one machine": any number of stateless instances share one PostgreSQL.
 * Two apps on one database, each with its own connection pool, must behave as one server. Only on
 * PostgreSQL: the embedded database belongs to one process.
 */
describe.skipIf(process.env.TEST_DB !== 'postgres')('two instances on one PostgreSQL', () => {
  let a: TestApp;
  let b: App;
  let bDatabase: DatabaseHandle;
  beforeAll(async () => {
    a = await createTestApp();
    bDatabase = await createDatabase(a.env);
    // The same clock: the two instances agree on the time, as servers kept in step by NTP do.
    b = await buildApp({ env: a.env, database: bDatabase, clock: a.clock });
    await b.ready();
  });
  afterAll(async () => {
    await b?.close();
    await bDatabase?.close();
    await a?.close();
  });

  const onB = (options: InjectOptions) => b.inject({ ...options, headers: { 'accept-language': 'en', ...options.headers } });
  const captchaOn = async (app: { inject: App['inject'] }) => (await app.inject({ method: 'GET', url: API_PATHS.captcha })).json().data.vcId as string;
  const loginOn = (app: { inject: App['inject'] }, userName: string, password: string, vcId: string) =>
    app.inject({ method: 'POST', url: API_PATHS.login, payload: { userName, password: md5Hex(password), vcId, vcCode: CAPTCHA_CODE } });

  it('share sessions: a login on A is valid on B, and a log-out on A ends it on B', async () => {
    const token = await a.loginAs('agent1');
    const auth = { authorization: `Bearer ${token}` };
    const onOther = await onB({ method: 'GET', url: API_PATHS.loginUserInfo, headers: auth });
    expect(onOther.statusCode).toBe(200);
    expect(onOther.json().data).toMatchObject({ loginName: 'agent1' });

    expect((await a.injectAs(token, { method: 'POST', url: API_PATHS.logout })).statusCode).toBe(200);
    const afterLogout = await onB({ method: 'GET', url: API_PATHS.loginUserInfo, headers: auth });
    expect(afterLogout.statusCode).toBe(401);
  });

  it('share captchas: one issued by A is answered on B, and only once', async () => {
    const vcId = await captchaOn(a.app);
    const answered = await loginOn(b, 'sales1', demoPassword('sales1'), vcId);
    expect(answered.json().code).toBe(200);
    const again = await loginOn(a.app, 'sales1', demoPassword('sales1'), vcId);
    expect(again.json().code).not.toBe(200);
  });

  it('share the login limit: wrong passwords on A and B together lock the account on both', async () => {
    for (let failure = 0; failure < ACCOUNT_LOCKOUT.failures; failure += 1) {
      const app = failure % 2 === 0 ? a.app : b;
      expect((await loginOn(app, 'external1', 'wrong-password', await captchaOn(app))).json().code).toBe(600);
      a.clock.advance(1000);
    }
    for (const app of [a.app, b]) {
      const refused = await loginOn(app, 'external1', demoPassword('external1'), await captchaOn(app));
      expect(refused.json().code).toBe(600);
    }
    a.clock.advance(ACCOUNT_LOCKOUT.lockMs);
    expect((await loginOn(b, 'external1', demoPassword('external1'), await captchaOn(b))).json().code).toBe(200);
  });

  it('share the SMS limits: a code sent by A makes B refuse another for the same phone within the minute', async () => {
    const send = (app: { inject: App['inject'] }) =>
      app.inject({ method: 'POST', url: API_PATHS.accountSendSmsCode, payload: { userName: 'agent2', phoneNum: '13800000005' } });
    expect((await send(a.app)).statusCode).toBe(200);
    const onOther = await send(b);
    expect(onOther.statusCode).toBe(429);
    expect(onOther.json().code).toBe(429);
  });
});
