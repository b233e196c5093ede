import { APP_PATHS } from '@campus/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { md5Hex } from '../../src/platform/passwords.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { asParent, demoParents, setParentPassword, signInParent, PARENT_PASSWORD, type DemoParent } from './support.js';

let t: TestApp;
let parent: DemoParent;
let other: DemoParent;

beforeAll(async () => {
  t = await createTestApp();
  const all = await demoParents(t);
  parent = all[0]!;
  other = all[1]!;
  await setParentPassword(t, parent.id);
  await setParentPassword(t, other.id);
});
afterAll(() => t.close());

const signIn = (payload: object, ip = '10.0.0.1') => t.app.inject({ method: 'POST', url: APP_PATHS.signIn, payload, remoteAddress: ip });

describe('POST /api/App/SignIn', () => {
  it('signs a parent in with phone and MD5 password and stamps lastLoginAt', async () => {
    const response = await signIn({ phoneNum: parent.phoneNum, password: md5Hex(PARENT_PASSWORD) });
    expect(response.json()).toMatchObject({ code: 200, data: { parent: { id: parent.id, phoneNum: parent.phoneNum } } });
    const found = (await t.db.execute(sql`select last_login_at as "at" from parents where id = ${parent.id}`)) as unknown as { rows: { at: unknown }[] };
    expect(found.rows[0]!.at).not.toBeNull();
  });

  it('refuses a wrong password and an unknown phone alike (code 600, "password error")', async () => {
    for (const payload of [{ phoneNum: parent.phoneNum, password: md5Hex('wrong') }, { phoneNum: '13000000000', password: md5Hex(PARENT_PASSWORD) }]) {
      expect((await signIn(payload, '10.0.0.2')).json()).toMatchObject({ code: 600, message: 'password error' });
    }
  });

  it('refuses a body with both or neither of password and SMS code', async () => {
    expect((await signIn({ phoneNum: parent.phoneNum })).statusCode).toBe(400);
    expect((await signIn({ phoneNum: parent.phoneNum, password: md5Hex('x'), smsCode: '123456' })).statusCode).toBe(400);
  });

  it('signs in with an SMS code written to the SMS outbox, used once', async () => {
    const sent = await t.app.inject({ method: 'POST', url: APP_PATHS.sendSignInCode, payload: { phoneNum: other.phoneNum }, remoteAddress: '10.0.0.3' });
    expect(sent.json().code).toBe(200);
    const outbox = (await t.db.execute(sql`select content from sms_outbox where phone = ${other.phoneNum} order by id desc limit 1`)) as unknown as { rows: { content: string }[] };
    const code = /(\d{6})/.exec(outbox.rows[0]!.content)![1]!;
    expect((await signIn({ phoneNum: other.phoneNum, smsCode: code }, '10.0.0.3')).json()).toMatchObject({ code: 200, data: { parent: { id: other.id } } });
    expect((await signIn({ phoneNum: other.phoneNum, smsCode: code }, '10.0.0.3')).json()).toMatchObject({ code: 600 });
  });

  it('sends no code to a phone that is no parent, answering the same, and limits codes per phone', async () => {
    const before = (await t.db.execute(sql`select count(*)::int as n from sms_outbox`)) as unknown as { rows: { n: number }[] };
    const first = await t.app.inject({ method: 'POST', url: APP_PATHS.sendSignInCode, payload: { phoneNum: '13000000001' }, remoteAddress: '10.0.0.4' });
    expect(first.json().code).toBe(200);
    const after = (await t.db.execute(sql`select count(*)::int as n from sms_outbox`)) as unknown as { rows: { n: number }[] };
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
    const again = await t.app.inject({ method: 'POST', url: APP_PATHS.sendSignInCode, payload: { phoneNum: '13000000001' }, remoteAddress: '10.0.0.4' });
    expect(again.statusCode).toBe(429);
  });

  it('locks the phone after five wrong passwords, even for the right one', async () => {
    const [, , locked] = await demoParents(t);
    await setParentPassword(t, locked!.id);
    for (let i = 0; i < 5; i += 1) await signIn({ phoneNum: locked!.phoneNum, password: md5Hex(`wrong-${i}`) }, `10.1.0.${i}`);
    const refused = await signIn({ phoneNum: locked!.phoneNum, password: md5Hex(PARENT_PASSWORD) }, '10.1.0.9');
    expect(refused.json().code).toBe(600);
    expect(refused.json().message).toMatch(/locked/);
  });
});

describe('parent sessions are of their own kind', () => {
  it('a parent token opens app calls and no console call; a console token no app call', async () => {
    const parentToken = await signInParent(t, parent.phoneNum);
    expect((await asParent(t, parentToken, { method: 'GET', url: APP_PATHS.children })).statusCode).toBe(200);
    for (const url of ['/api/User/GetLoginUserInfo', '/api/Home/GetNavigationTree']) {
      const response = await t.injectAs(parentToken, { method: 'GET', url });
      expect(response.statusCode).toBe(401);
      expect(response.json().code).toBe('10010');
    }
    const consoleToken = await t.loginAs('admin');
    const refused = await t.injectAs(consoleToken, { method: 'GET', url: APP_PATHS.children });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().code).toBe('10010');
    expect((await t.app.inject({ method: 'GET', url: APP_PATHS.children })).statusCode).toBe(401);
  });

  it('sign-out ends the session', async () => {
    const token = await signInParent(t, parent.phoneNum);
    expect((await asParent(t, token, { method: 'POST', url: APP_PATHS.signOut })).json().code).toBe(200);
    expect((await asParent(t, token, { method: 'GET', url: APP_PATHS.children })).statusCode).toBe(401);
  });

  it('a disabled parent cannot sign in and its sessions end', async () => {
    const token = await signInParent(t, other.phoneNum);
    await t.db.execute(sql`update parents set enabled = false where id = ${other.id}`);
    expect((await asParent(t, token, { method: 'GET', url: APP_PATHS.children })).statusCode).toBe(401);
    const sessions = (await t.db.execute(sql`select count(*)::int as n from parent_sessions where parent_id = ${other.id}`)) as unknown as { rows: { n: number }[] };
    expect(sessions.rows[0]!.n).toBe(0);
    expect((await signIn({ phoneNum: other.phoneNum, password: md5Hex(PARENT_PASSWORD) }, '10.0.0.8')).json()).toMatchObject({ code: 600, message: 'account disabled' });
    await t.db.execute(sql`update parents set enabled = true where id = ${other.id}`);
  });

  it('an expired session answers 10011', async () => {
    const token = await signInParent(t, parent.phoneNum);
    t.clock.advance(31 * 86_400_000);
    const response = await asParent(t, token, { method: 'GET', url: APP_PATHS.children });
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('10011');
  });

  it('a session used every week slides on idle but ends at its absolute lifetime (90 days), as the console\'s do', async () => {
    const token = await signInParent(t, parent.phoneNum);
    // 12 weeks of calls: each slides the 30-day idle expiry; none may reach past day 90.
    for (let week = 1; week <= 12; week += 1) {
      t.clock.advance(7 * 86_400_000);
      expect((await asParent(t, token, { method: 'GET', url: APP_PATHS.children })).statusCode).toBe(200);
    }
    const found = (await t.db.execute(sql`select created_at, expires_at from parent_sessions order by id desc limit 1`)) as unknown as { rows: { created_at: unknown; expires_at: unknown }[] };
    const row = found.rows[0];
    expect(new Date(String(row!.expires_at)).getTime() - new Date(String(row!.created_at)).getTime()).toBeLessThanOrEqual(90 * 86_400_000);
    t.clock.advance(7 * 86_400_000);
    const response = await asParent(t, token, { method: 'GET', url: APP_PATHS.children });
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('10011');
  });
});
