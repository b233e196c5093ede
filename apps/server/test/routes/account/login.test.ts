import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loginAttempts, users } from '../../../src/db/schema/index.js';
import { ACCOUNT_LOCKOUT, ADDRESS_BACKOFF } from '../../../src/platform/login-throttle.js';
import { md5Hex } from '../../../src/platform/passwords.js';
import { CAPTCHA_CODE, createTestApp, type TestApp } from '../../helpers/test-app.js';

describe('POST /api/Account/Login_web', () => {
  let t: TestApp;
  let nextAddress = 1;
  let address: string;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  // Each test logs in from an address of its own, so the per-address limit of one test cannot leak into another.
  beforeEach(() => {
    address = `10.0.0.${nextAddress++}`;
  });

  async function attempt(userName: string, password: string, options: { vcCode?: string; remoteAddress?: string } = {}) {
    const captcha = await t.app.inject({ method: 'GET', url: '/api/Account/GetVerificationCode' });
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/Account/Login_web',
      remoteAddress: options.remoteAddress ?? address,
      payload: { userName, password: md5Hex(password), vcId: captcha.json().data.vcId, vcCode: options.vcCode ?? CAPTCHA_CODE },
    });
    return { status: response.statusCode, body: response.json() };
  }

  it('answers the session, the school and the frames on success', async () => {
    const { status, body } = await attempt('admin', 'Admin@123');
    expect(status).toBe(200);
    expect(body.code).toBe(200);
    expect(body.data).toMatchObject({ SchoolName: 'Campus Ops', UserName: '系统管理员', SchoolId: 0, ClassId: 0 });
    expect(body.data.Token).toMatch(/^[\w-]{43}$/);
    expect(new Date(body.data.TokenTime).getTime()).toBe(t.clock.now().getTime() + 30 * 60_000);
    expect(body.data.Frames).toContainEqual({ ID: 301 });
    expect(body.data.Frames.length).toBeGreaterThan(100);
  });

  it("answers an external user's first bound school", async () => {
    const { body } = await attempt('external1', 'Demo@123');
    expect(body.data.SchoolName).toBe('北京市海淀区阳光幼儿园');
    expect(body.data.SchoolId).toBeGreaterThan(0);
  });

  it('answers code 600 with HTTP 200 for a wrong captcha, an unknown user and a wrong password', async () => {
    expect(await attempt('admin', 'Admin@123', { vcCode: '9999' })).toEqual({ status: 200, body: { code: 600, message: 'verification code error', data: null } });
    expect((await attempt('admin', 'wrong')).body).toMatchObject({ code: 600, message: 'password error' });
  });

  it('answers an unknown user exactly as a wrong password, in every language (issue 8)', async () => {
    for (const language of ['en', 'zh-CN']) {
      const answers = [];
      for (const userName of ['nobody', 'admin']) {
        const captcha = await t.app.inject({ method: 'GET', url: '/api/Account/GetVerificationCode' });
        const response = await t.app.inject({
          method: 'POST',
          url: '/api/Account/Login_web',
          remoteAddress: address,
          headers: { 'accept-language': language },
          payload: { userName, password: md5Hex('wrong'), vcId: captcha.json().data.vcId, vcCode: CAPTCHA_CODE },
        });
        answers.push({ status: response.statusCode, body: response.json() });
      }
      expect(answers[0]).toEqual(answers[1]);
      expect(answers[0]!.body).toMatchObject({ code: 600, message: 'password error' });
    }
    // The login log still tells the administrator which it was.
    const rows = await t.db.select().from(loginAttempts).where(eq(loginAttempts.ip, address));
    expect(rows.map((row) => row.outcome)).toEqual(['unknown_user', 'bad_password', 'unknown_user', 'bad_password']);
  });

  it('locks an unknown name after 5 failures with the same messages as a real account (issue 8)', async () => {
    const messages = async (userName: string) => {
      const answers: string[] = [];
      for (let failure = 0; failure < ACCOUNT_LOCKOUT.failures + 1; failure += 1) answers.push((await attempt(userName, 'wrong')).body.message);
      return answers;
    };
    const unknown = await messages('ghost-account');
    const real = await messages('agent1');
    expect(unknown).toEqual(real);
    expect(unknown.at(-1)).toMatch(/locked.*try again in 10 minute/);
    t.clock.advance(ACCOUNT_LOCKOUT.lockMs);
    expect((await attempt('agent1', 'Demo@123')).body.code).toBe(200);
  });

  it('answers 600 for a disabled account (after a right password only)', async () => {
    await t.db.update(users).set({ enabled: false }).where(eq(users.loginName, 'agent2'));
    expect((await attempt('agent2', 'wrong')).body.message).toBe('password error');
    expect((await attempt('agent2', 'Demo@123')).body).toMatchObject({ code: 600, message: 'account disabled' });
    await t.db.update(users).set({ enabled: true }).where(eq(users.loginName, 'agent2'));
  });

  it('answers 601 with the masked phone when the password must be changed', async () => {
    await t.db.update(users).set({ mustChangePassword: true }).where(eq(users.loginName, 'sales2'));
    const { status, body } = await attempt('sales2', 'Demo@123');
    expect(status).toBe(200);
    expect(body).toMatchObject({ code: 601, data: { userName: 'sales2', phoneMasked: '138****0003' } });
    await t.db.update(users).set({ mustChangePassword: false }).where(eq(users.loginName, 'sales2'));
  });

  it('rejects a password that is not an MD5 hex with HTTP 400 field errors', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/Account/Login_web', payload: { userName: 'admin', password: 'plain', vcId: 'x', vcCode: '1' } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 400, data: { errors: [{ path: 'password', message: 'must be the MD5 hex of the password' }] } });
  });

  it('locks the account for 10 minutes after 5 wrong passwords within 10 minutes', async () => {
    for (let failure = 0; failure < ACCOUNT_LOCKOUT.failures; failure += 1) {
      expect((await attempt('child1', 'wrong')).body.message).toBe('password error');
      t.clock.advance(60_000);
    }
    // The lock runs 10 minutes from the fifth failure, one minute ago; a right password does not lift it.
    const locked = (await attempt('child1', 'Demo@123')).body;
    expect(locked.code).toBe(600);
    expect(locked.message).toMatch(/locked.*try again in 9 minute/);
    t.clock.advance(8 * 60_000);
    expect((await attempt('child1', 'Demo@123')).body.message).toMatch(/try again in 1 minute/);
    t.clock.advance(60_000);
    expect((await attempt('child1', 'Demo@123')).body.code).toBe(200);
  });

  it('does not lock when the failures are spread over more than 10 minutes, and a success resets the count', async () => {
    for (let failure = 0; failure < ACCOUNT_LOCKOUT.failures; failure += 1) {
      await attempt('sales1', 'wrong');
      t.clock.advance(3 * 60_000);
    }
    expect((await attempt('sales1', 'Demo@123')).body.code).toBe(200);
    for (let failure = 0; failure < ACCOUNT_LOCKOUT.failures - 1; failure += 1) await attempt('sales1', 'wrong');
    expect((await attempt('sales1', 'Demo@123')).body.code).toBe(200);
  });

  it('does not count refusals of a locked account, so they cannot lock others out of the address (issue 8)', async () => {
    for (let failure = 0; failure < ACCOUNT_LOCKOUT.failures; failure += 1) await attempt('child1', 'wrong');
    // Someone keeps trying the locked account: each is refused without a password check, and is not a new failure.
    for (let refusal = 0; refusal < 40; refusal += 1) expect((await attempt('child1', 'Demo@123')).body.message).toMatch(/locked/);
    expect((await attempt('admin', 'Admin@123')).body.code).toBe(200);
    t.clock.advance(ACCOUNT_LOCKOUT.lockMs);
  });

  it('backs an address off progressively after many wrong passwords, never refusing a right one for long (issue 8)', async () => {
    // Wrong passwords on many names (each under its own lockout): the free ones first.
    let name = 0;
    const fail = async () => expect((await attempt(`guess-${address}-${name++}`, 'wrong')).body.message).toBe('password error');
    for (let failure = 0; failure < ADDRESS_BACKOFF.freeFailures; failure += 1) await fail();
    await fail();
    // The 11th failure costs a wait of 1 s, the 12th 2 s, then 4, 8, … — counted from the latest failure.
    expect((await attempt('admin', 'Admin@123')).body).toMatchObject({ code: 600, message: expect.stringMatching(/try again in 1 second/) });
    t.clock.advance(1_000);
    await fail();
    expect((await attempt('admin', 'Admin@123')).body.message).toMatch(/try again in 2 second/);
    // Refusals during the wait are not failures: the wait does not grow while someone waits.
    expect((await attempt('admin', 'Admin@123')).body.message).toMatch(/try again in 2 second/);
    // Six more failures a minute apart, all within the 10-minute window: 18 failures would owe 128 s.
    for (let failure = 0; failure < 6; failure += 1) {
      t.clock.advance(ADDRESS_BACKOFF.maxDelayMs);
      await fail();
    }
    // However many failures, the wait is capped at a minute…
    expect((await attempt('admin', 'Admin@123')).body.message).toMatch(/try again in 60 second/);
    // …another address is not slowed at all…
    expect((await attempt('admin', 'Admin@123', { remoteAddress: '10.9.9.9' })).body.code).toBe(200);
    // …and after it the right password gets in, where the old limit refused everyone for 10 minutes.
    t.clock.advance(ADDRESS_BACKOFF.maxDelayMs);
    expect((await attempt('admin', 'Admin@123')).body.code).toBe(200);
  });

  it('writes every attempt to the login log', async () => {
    await attempt('agent1', 'wrong');
    await attempt('agent1', 'Demo@123');
    const rows = await t.db.select().from(loginAttempts).where(eq(loginAttempts.ip, address));
    expect(rows.map((row) => row.outcome)).toEqual(['bad_password', 'success']);
    expect(rows[0]!.userId).not.toBeNull();
  });
});
