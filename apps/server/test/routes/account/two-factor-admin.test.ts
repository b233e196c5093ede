/**
 * What company administrators do about other accounts' two-factor sign-in (issue 8, ASVS 4.3.1):
 * reset a lost authenticator from the company users page.
 */
import { ErrorCode } from '@campus/contract';
import { and, desc, eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { operationLog, userRecoveryCodes, users, userTotp } from '../../../src/db/schema/index.js';
import { md5Hex } from '../../../src/platform/passwords.js';
import { CAPTCHA_CODE, createTestApp, type TestApp } from '../../helpers/test-app.js';

let t: TestApp;
let admin: string;
let nextAddress = 1;
let address: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.loginAs('admin');
});
afterAll(() => t.close());
beforeEach(() => {
  address = `10.2.0.${nextAddress++}`;
});

const PASSWORD = 'Staff@2026';
const post = (token: string, url: string, payload: unknown) => t.injectAs(token, { method: 'POST', url, payload: payload as object });
const userInfo = (token: string) => t.injectAs(token, { method: 'GET', url: '/api/User/GetLoginUserInfo' });

async function passwordStep(userName: string, password = PASSWORD) {
  const captcha = await t.app.inject({ method: 'GET', url: '/api/Account/GetVerificationCode' });
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/Account/Login_web',
    remoteAddress: address,
    payload: { userName, password: md5Hex(password), vcId: captcha.json().data.vcId, vcCode: CAPTCHA_CODE },
  });
  return response.json();
}

/** A new company administrator, signed in; answers its id and token. */
async function addCompanyAccount(loginName: string): Promise<{ id: number; token: string }> {
  const added = await post(admin, '/api/CompanyUser/Add?view=userCompany', {
    loginName,
    password: md5Hex(PASSWORD),
    name: loginName,
    phoneNum: '13900000001',
    type: 'company',
    mustChangePassword: false,
  });
  expect(added.json().code, added.body).toBe(200);
  const [row] = await t.db.select({ id: users.id }).from(users).where(eq(users.loginName, loginName));
  const body = await passwordStep(loginName);
  expect(body.code).toBe(200);
  return { id: row!.id, token: body.data.Token };
}

/** Turns two-factor on for a signed-in account; answers its authenticator. */
async function enrol(token: string, password = PASSWORD): Promise<TOTP> {
  const begun = (await post(token, '/api/User/BeginTotp', { password: md5Hex(password) })).json();
  const totp = new TOTP({ secret: Secret.fromBase32(begun.data.secret), algorithm: 'SHA1', digits: 6, period: 30 });
  expect((await post(token, '/api/User/ConfirmTotp', { code: totp.generate({ timestamp: t.clock.now().getTime() }) })).json().code).toBe(200);
  return totp;
}

describe('CompanyUser/ResetTwoFactor (a lost authenticator)', () => {
  it('removes the authenticator and the recovery codes, ends every session and writes the operation log', async () => {
    const staff = await addCompanyAccount('staff-lost');
    await enrol(staff.token);
    const otherSession = (await passwordStep('staff-lost')).code;
    expect(otherSession).toBe(ErrorCode.SecondFactorRequired);

    const response = await post(admin, '/api/CompanyUser/ResetTwoFactor?view=userCompany', { id: staff.id });
    expect(response.json(), response.body).toMatchObject({ code: 200, data: { id: staff.id, twoFactor: false } });

    expect(await t.db.select().from(userTotp).where(eq(userTotp.userId, staff.id))).toEqual([]);
    expect(await t.db.select().from(userRecoveryCodes).where(eq(userRecoveryCodes.userId, staff.id))).toEqual([]);
    expect((await userInfo(staff.token)).json().code).toBe('10010');
    const [logged] = await t.db
      .select()
      .from(operationLog)
      .where(and(eq(operationLog.family, 'CompanyUser'), eq(operationLog.action, 'ResetTwoFactor')))
      .orderBy(desc(operationLog.id))
      .limit(1);
    expect(logged).toMatchObject({ ids: [staff.id], changes: { twoFactor: [true, false] } });
    // The password alone signs in again, and the account can enrol a new authenticator.
    const again = await passwordStep('staff-lost');
    expect(again.code).toBe(200);
    await enrol(again.data.Token);
    expect((await passwordStep('staff-lost')).code).toBe(ErrorCode.SecondFactorRequired);
  });

  it("refuses an account without two-factor, and one's own", async () => {
    const staff = await addCompanyAccount('staff-plain');
    expect((await post(admin, '/api/CompanyUser/ResetTwoFactor?view=userCompany', { id: staff.id })).json()).toMatchObject({
      code: 400,
      data: { errors: [{ path: 'id', key: 'twoFactor.notEnabled' }] },
    });
    const [self] = await t.db.select({ id: users.id }).from(users).where(eq(users.loginName, 'admin'));
    expect((await post(admin, '/api/CompanyUser/ResetTwoFactor?view=userCompany', { id: self!.id })).json()).toMatchObject({
      code: 400,
      data: { errors: [{ path: 'id', key: 'twoFactor.cannotResetOwn' }] },
    });
  });

  it('is refused without the password button, and to accounts that are not company staff', async () => {
    const staff = await addCompanyAccount('staff-kept');
    await enrol(staff.token);
    const other = await addCompanyAccount('staff-nobutton');
    // The company users page (frame 801) without its password button.
    const grant = await post(admin, '/api/Permission/SaveGrant', { userId: other.id, frames: [{ frameId: 801, buttons: ['add', 'update'] }] });
    expect(grant.json().code, grant.body).toBe(200);
    expect((await post(other.token, '/api/CompanyUser/ResetTwoFactor?view=userCompany', { id: staff.id })).statusCode).toBe(403);
    expect((await post(await t.loginAs('agent1'), '/api/CompanyUser/ResetTwoFactor?view=userCompany', { id: staff.id })).statusCode).toBe(403);
    expect(await t.db.select({ userId: userTotp.userId }).from(userTotp).where(eq(userTotp.userId, staff.id))).toHaveLength(1);
  });
});

describe('mandatory two-factor sign-in for company administrators (ASVS 4.3.1)', () => {
  const policy = async (token: string) => (await t.injectAs(token, { method: 'GET', url: '/api/CompanyUser/GetTwoFactorPolicy' })).json();
  const setPolicy = (token: string, required: boolean) => post(token, '/api/CompanyUser/SaveTwoFactorPolicy', { required });
  const setupStep = (verb: 'BeginTwoFactorSetup' | 'ConfirmTwoFactorSetup', payload: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: `/api/Account/${verb}`, remoteAddress: address, payload }).then((response) => response.json());

  it('asks a company administrator without an authenticator to set one up at sign-in (603), with no session before', async () => {
    expect(await policy(admin)).toMatchObject({ code: 200, data: { required: false } });
    // Whoever turns it on has an authenticator of their own.
    expect((await setPolicy(admin, true)).json()).toMatchObject({ code: 400, data: { errors: [{ path: 'required', key: 'twoFactor.ownFirst' }] } });
    const boss = await addCompanyAccount('policy-boss');
    await enrol(boss.token);
    const staff = await addCompanyAccount('policy-staff');

    expect((await setPolicy(boss.token, true)).json()).toMatchObject({ code: 200, data: { required: true } });
    expect(await policy(boss.token)).toMatchObject({ data: { required: true } });
    const [logged] = await t.db.select().from(operationLog).where(eq(operationLog.action, 'twoFactorPolicy')).orderBy(desc(operationLog.id)).limit(1);
    expect(logged).toMatchObject({ family: 'CompanyUser', changes: { required: [false, true] } });
    // Company administrators without an authenticator lose their sessions; the one with it keeps hers.
    expect((await userInfo(staff.token)).json().code).toBe('10010');
    expect((await userInfo(admin)).json().code).toBe('10010');
    expect((await userInfo(boss.token)).statusCode).toBe(200);

    const asked = await passwordStep('policy-staff');
    expect(asked).toMatchObject({ code: ErrorCode.TwoFactorSetupRequired, data: { challenge: expect.any(String), expiresAt: expect.any(String) } });
    expect(asked.data.Token).toBeUndefined();
    // The challenge opens no session by the second-factor step: there is no authenticator to answer.
    expect((await t.app.inject({ method: 'POST', url: '/api/Account/LoginSecondFactor', remoteAddress: address, payload: { challenge: asked.data.challenge, code: '123456' } })).json().code).toBe(600);

    const begun = await setupStep('BeginTwoFactorSetup', { challenge: asked.data.challenge });
    expect(begun).toMatchObject({ code: 200, data: { secret: expect.stringMatching(/^[A-Z2-7]{32}$/), uri: expect.stringContaining('otpauth://totp/') } });
    const totp = new TOTP({ secret: Secret.fromBase32(begun.data.secret), algorithm: 'SHA1', digits: 6, period: 30 });
    const now = totp.generate({ timestamp: t.clock.now().getTime() });
    const wrong = String((Number(now) + 500_000) % 1_000_000).padStart(6, '0');
    expect(await setupStep('ConfirmTwoFactorSetup', { challenge: asked.data.challenge, code: wrong })).toMatchObject({ code: 600, data: null });
    const confirmed = await setupStep('ConfirmTwoFactorSetup', { challenge: asked.data.challenge, code: now });
    expect(confirmed).toMatchObject({ code: 200, data: { login: { Token: expect.any(String), UserName: 'policy-staff' } } });
    expect(confirmed.data.recoveryCodes).toHaveLength(10);
    expect((await userInfo(confirmed.data.login.Token)).statusCode).toBe(200);
    // Used up; from now on the password leads to the second factor.
    expect((await setupStep('ConfirmTwoFactorSetup', { challenge: asked.data.challenge, code: now })).code).toBe(600);
    expect((await passwordStep('policy-staff')).code).toBe(ErrorCode.SecondFactorRequired);

    // Other kinds of accounts sign in as before.
    expect((await userInfo(await t.loginAs('sales1'))).statusCode).toBe(200);

    // A 602 challenge cannot replace the authenticator of an account that has one.
    t.clock.advance(60_000);
    const secondFactor = await passwordStep('policy-boss');
    expect(secondFactor.code).toBe(ErrorCode.SecondFactorRequired);
    expect((await setupStep('BeginTwoFactorSetup', { challenge: secondFactor.data.challenge })).code).toBe(600);

    // Off again: the password alone signs a company administrator in.
    expect((await setPolicy(boss.token, false)).json()).toMatchObject({ code: 200, data: { required: false } });
    expect((await passwordStep('admin', 'Admin@123')).code).toBe(200);
  });

  it('is changed only by company users holding the password button of the company users page', async () => {
    admin = await t.loginAs('admin');
    const agent = await t.loginAs('agent1');
    expect((await setPolicy(agent, true)).statusCode).toBe(403);
    expect((await t.injectAs(agent, { method: 'GET', url: '/api/CompanyUser/GetTwoFactorPolicy' })).statusCode).toBe(403);
    const other = await addCompanyAccount('policy-nobutton');
    expect((await post(admin, '/api/Permission/SaveGrant', { userId: other.id, frames: [{ frameId: 801, buttons: ['add', 'update'] }] })).json().code).toBe(200);
    expect((await setPolicy(other.token, false)).statusCode).toBe(403);
    expect(await policy(other.token)).toMatchObject({ code: 200, data: { required: false } });
  });
});
