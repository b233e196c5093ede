import { ErrorCode } from '@campus/contract';
import { eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loginAttempts, userRecoveryCodes, users, userTotp } from '../../../src/db/schema/index.js';
import { ACCOUNT_LOCKOUT } from '../../../src/platform/login-throttle.js';
import { md5Hex } from '../../../src/platform/passwords.js';
import { LOGIN_CHALLENGE_TTL_MS, RECOVERY_CODE_COUNT } from '../../../src/platform/two-factor.js';
import { CAPTCHA_CODE, createTestApp, type TestApp } from '../../helpers/test-app.js';

/** TOTP two-factor sign-in for administrator accounts (issue 8, ASVS 4.3.1). */
describe('two-factor sign-in (TOTP)', () => {
  let t: TestApp;
  let nextAddress = 1;
  let address: string;
  let secret: string;
  let recoveryCodes: string[];
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => {
    address = `10.1.0.${nextAddress++}`;
  });

  /** The code the authenticator app shows now (on the test clock), or `stepsAhead` periods later. */
  const codeNow = (stepsAhead = 0) =>
    new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: t.clock.now().getTime() + stepsAhead * 30_000 });

  /** A six-digit code that is not the current one. */
  const wrongCode = () => String((Number(codeNow()) + 500_000) % 1_000_000).padStart(6, '0');

  async function passwordStep(userName: string, password: string) {
    const captcha = await t.app.inject({ method: 'GET', url: '/api/Account/GetVerificationCode' });
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/Account/Login_web',
      remoteAddress: address,
      headers: { 'accept-language': 'en' },
      payload: { userName, password: md5Hex(password), vcId: captcha.json().data.vcId, vcCode: CAPTCHA_CODE },
    });
    return response.json();
  }

  async function secondStep(challenge: string, code: string) {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/Account/LoginSecondFactor',
      remoteAddress: address,
      headers: { 'accept-language': 'en' },
      payload: { challenge, code },
    });
    expect(response.statusCode).toBe(200);
    return response.json();
  }

  async function challengeOf(userName = 'admin', password = 'Admin@123'): Promise<string> {
    const body = await passwordStep(userName, password);
    expect(body).toMatchObject({ code: ErrorCode.SecondFactorRequired, data: { challenge: expect.any(String) } });
    expect(body.data.Token).toBeUndefined();
    return body.data.challenge;
  }

  const post = (token: string, url: string, payload: Record<string, unknown>) => t.injectAs(token, { method: 'POST', url, payload, headers: { 'accept-language': 'en' } });
  const profileOf = async (token: string) => (await t.injectAs(token, { method: 'GET', url: '/api/User/GetLoginUserInfo' })).json().data;

  it('is offered to company administrators only', async () => {
    const agent = await t.loginAs('agent1');
    expect((await profileOf(agent)).twoFactor).toEqual({ available: false, enabled: false, recoveryCodesLeft: 0 });
    expect((await post(agent, '/api/User/BeginTotp', { password: md5Hex('Demo@123') })).statusCode).toBe(403);
    const admin = await t.loginAs('admin');
    expect((await profileOf(admin)).twoFactor).toEqual({ available: true, enabled: false, recoveryCodesLeft: 0 });
  });

  it('enrols with the login password and a code, showing the secret and the recovery codes once', async () => {
    const admin = await t.loginAs('admin');
    expect((await post(admin, '/api/User/BeginTotp', { password: md5Hex('wrong') })).json()).toMatchObject({ code: 400, data: { errors: [{ path: 'password' }] } });
    const begun = (await post(admin, '/api/User/BeginTotp', { password: md5Hex('Admin@123') })).json();
    expect(begun.code).toBe(200);
    secret = begun.data.secret;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(begun.data.uri).toMatch(/^otpauth:\/\/totp\/Campus%20Ops:admin\?issuer=Campus%20Ops&secret=[A-Z2-7]{32}&algorithm=SHA1&digits=6&period=30$/);
    // Not confirmed yet: the password alone still signs in.
    expect((await passwordStep('admin', 'Admin@123')).code).toBe(200);

    expect((await post(admin, '/api/User/ConfirmTotp', { code: wrongCode() })).json()).toMatchObject({
      code: 400,
      data: { errors: [{ path: 'code', message: 'wrong authentication code' }] },
    });
    const confirmed = (await post(admin, '/api/User/ConfirmTotp', { code: codeNow() })).json();
    expect(confirmed.code).toBe(200);
    recoveryCodes = confirmed.data.recoveryCodes;
    expect(recoveryCodes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(recoveryCodes).size).toBe(RECOVERY_CODE_COUNT);
    recoveryCodes.forEach((code) => expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/));
    expect((await profileOf(admin)).twoFactor).toEqual({ available: true, enabled: true, recoveryCodesLeft: RECOVERY_CODE_COUNT });
    // A second set-up cannot replace a confirmed authenticator.
    expect((await post(admin, '/api/User/BeginTotp', { password: md5Hex('Admin@123') })).statusCode).toBe(400);
  });

  it('stores the secret encrypted and the recovery codes hashed', async () => {
    const [admin] = await t.db.select({ id: users.id }).from(users).where(eq(users.loginName, 'admin'));
    const [row] = await t.db.select().from(userTotp).where(eq(userTotp.userId, admin!.id));
    expect(row!.secretEncrypted).toMatch(/^v1\./);
    expect(row!.secretEncrypted).not.toContain(secret);
    const hashes = await t.db.select().from(userRecoveryCodes).where(eq(userRecoveryCodes.userId, admin!.id));
    expect(hashes).toHaveLength(RECOVERY_CODE_COUNT);
    for (const { codeHash } of hashes) expect(recoveryCodes.some((code) => codeHash.includes(code.replace('-', '')))).toBe(false);
  });

  it('asks for the second factor with code 602 after the password, and signs in with the authenticator code', async () => {
    // Codes are one-time: the enrolment used this period's code, so the next period's is used here.
    t.clock.advance(30_000);
    const challenge = await challengeOf();
    expect(await secondStep(challenge, '12345x')).toMatchObject({ code: 600, message: 'wrong authentication code' });
    const answer = await secondStep(challenge, codeNow());
    expect(answer.code).toBe(200);
    expect(answer.data).toMatchObject({ UserName: '系统管理员', Token: expect.stringMatching(/^[\w-]{43}$/) });
    // The challenge is used up, and the same code is never accepted twice.
    expect(await secondStep(challenge, codeNow())).toMatchObject({ code: 600, message: 'the sign-in has expired; enter your password again' });
    expect(await secondStep(await challengeOf(), codeNow())).toMatchObject({ code: 600, message: 'wrong authentication code' });
  });

  it('signs in once with each recovery code', async () => {
    const challenge = await challengeOf();
    expect((await secondStep(challenge, recoveryCodes[0]!.toUpperCase())).code).toBe(200);
    expect(await secondStep(await challengeOf(), recoveryCodes[0]!)).toMatchObject({ code: 600, message: 'wrong authentication code' });
  });

  it('lets a challenge expire after five minutes', async () => {
    const challenge = await challengeOf();
    t.clock.advance(LOGIN_CHALLENGE_TTL_MS);
    expect(await secondStep(challenge, codeNow())).toMatchObject({ code: 600, message: 'the sign-in has expired; enter your password again' });
  });

  it('counts wrong codes toward the account lockout', async () => {
    // Earlier tests' wrong codes fall outside the lockout window first.
    t.clock.advance(ACCOUNT_LOCKOUT.windowMs + 60_000);
    const challenge = await challengeOf();
    for (let failure = 0; failure < ACCOUNT_LOCKOUT.failures; failure += 1) {
      expect(await secondStep(challenge, recoveryCodes[0]!)).toMatchObject({ code: 600, message: 'wrong authentication code' });
    }
    expect((await secondStep(challenge, codeNow())).message).toMatch(/locked.*try again in 10 minute/);
    expect((await passwordStep('admin', 'Admin@123')).message).toMatch(/locked/);
    const outcomes = await t.db.select({ outcome: loginAttempts.outcome }).from(loginAttempts).where(eq(loginAttempts.ip, address));
    expect(outcomes.filter((row) => row.outcome === 'bad_second_factor')).toHaveLength(ACCOUNT_LOCKOUT.failures);
    t.clock.advance(ACCOUNT_LOCKOUT.lockMs);
  });

  it('turns off with the login password and a code, then the password alone signs in', async () => {
    t.clock.advance(30_000);
    const token = (await secondStep(await challengeOf(), codeNow())).data.Token as string;
    expect((await profileOf(token)).twoFactor.recoveryCodesLeft).toBe(RECOVERY_CODE_COUNT - 1);
    expect((await post(token, '/api/User/DisableTotp', { password: md5Hex('wrong'), code: recoveryCodes[1] })).json()).toMatchObject({
      code: 400,
      data: { errors: [{ path: 'password' }] },
    });
    expect((await post(token, '/api/User/DisableTotp', { password: md5Hex('Admin@123'), code: recoveryCodes[0] })).json()).toMatchObject({
      code: 400,
      data: { errors: [{ path: 'code', message: 'wrong authentication code' }] },
    });
    expect((await post(token, '/api/User/DisableTotp', { password: md5Hex('Admin@123'), code: recoveryCodes[1] })).json().code).toBe(200);
    expect((await profileOf(token)).twoFactor).toEqual({ available: true, enabled: false, recoveryCodesLeft: 0 });
    expect((await passwordStep('admin', 'Admin@123')).code).toBe(200);
  });
});
