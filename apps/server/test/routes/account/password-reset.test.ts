import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smsOutbox, users } from '../../../src/db/schema/index.js';
import { md5Hex } from '../../../src/platform/passwords.js';
import { SMS_ADDRESS_LIMIT, SMS_CODE_TTL_MS, SMS_RESEND_INTERVAL_MS } from '../../../src/platform/sms.js';
import { CAPTCHA_CODE, createTestApp, type TestApp } from '../../helpers/test-app.js';

describe('POST /api/Account/SendSmsCode and /api/Account/UpdateUserPassword', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const sendCode = (userName: string, phoneNum: string) => t.app.inject({ method: 'POST', url: '/api/Account/SendSmsCode', payload: { userName, phoneNum } });
  const resetPassword = (userName: string, phoneNum: string, smsCode: string, newPassword: string) =>
    t.app.inject({ method: 'POST', url: '/api/Account/UpdateUserPassword', payload: { userName, phoneNum, smsCode, newPassword: md5Hex(newPassword) } });
  const outboxOf = (phone: string) => t.db.select().from(smsOutbox).where(eq(smsOutbox.phone, phone)).orderBy(desc(smsOutbox.id));
  const latestCode = async (phone: string) => /\d{6}/.exec((await outboxOf(phone))[0]!.content)![0];
  const loginCode = async (userName: string, password: string) => {
    const captcha = (await t.app.inject({ method: 'GET', url: '/api/Account/GetVerificationCode' })).json().data;
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/Account/Login_web',
      payload: { userName, password: md5Hex(password), vcId: captcha.vcId, vcCode: CAPTCHA_CODE },
    });
    return response.json().code;
  };

  it('sends a 6-digit code to the outbox and resets the password with it, once', async () => {
    const oldToken = await t.loginAs('agent1');
    expect((await sendCode('agent1', '13800000004')).json()).toEqual({ code: 200, message: 'ok', data: null });
    const code = await latestCode('13800000004');
    expect(code).toMatch(/^\d{6}$/);

    expect((await resetPassword('agent1', '13800000004', code, 'New@2026')).json().code).toBe(200);
    expect(await loginCode('agent1', 'New@2026')).toBe(200);
    expect(await loginCode('agent1', 'Demo@123')).toBe(600);
    expect((await t.injectAs(oldToken, { method: 'GET', url: '/api/User/GetLoginUserInfo' })).json().code).toBe('10010');

    const reused = await resetPassword('agent1', '13800000004', code, 'Other@2026');
    expect(reused.statusCode).toBe(400);
    expect(reused.json().data.errors).toEqual([{ path: 'smsCode', message: 'wrong or expired verification code', key: 'validation.wrongSmsCode' }]);
  });

  it('answers the same for a phone that is not the account’s, but sends nothing', async () => {
    t.clock.advance(SMS_RESEND_INTERVAL_MS);
    expect((await sendCode('agent2', '13900000099')).json()).toEqual({ code: 200, message: 'ok', data: null });
    expect(await outboxOf('13900000099')).toEqual([]);
  });

  it('allows one code per phone per minute (HTTP 429)', async () => {
    t.clock.advance(SMS_RESEND_INTERVAL_MS);
    expect((await sendCode('agent2', '13800000005')).statusCode).toBe(200);
    const again = await sendCode('agent2', '13800000005');
    expect(again.statusCode).toBe(429);
    expect(again.json().code).toBe(429);
    t.clock.advance(SMS_RESEND_INTERVAL_MS);
    expect((await sendCode('agent2', '13800000005')).statusCode).toBe(200);
  });

  it('limits the codes one address may ask for, whatever the phones (HTTP 429)', async () => {
    const fromAddress = (phoneNum: string) =>
      t.app.inject({ method: 'POST', url: '/api/Account/SendSmsCode', remoteAddress: '10.9.8.7', payload: { userName: 'nobody', phoneNum } });
    for (let i = 0; i < SMS_ADDRESS_LIMIT.count; i++) {
      expect((await fromAddress(`1590000${String(i).padStart(4, '0')}`)).statusCode).toBe(200);
    }
    const refused = await fromAddress('15900009999');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toContain('this address');
  });

  it('refuses an expired code', async () => {
    t.clock.advance(SMS_RESEND_INTERVAL_MS);
    await sendCode('sales2', '13800000003');
    const code = await latestCode('13800000003');
    t.clock.advance(SMS_CODE_TTL_MS + 1);
    expect((await resetPassword('sales2', '13800000003', code, 'New@2026')).statusCode).toBe(400);
  });

  it('burns a code after five wrong guesses', async () => {
    t.clock.advance(SMS_RESEND_INTERVAL_MS);
    await sendCode('sales1', '13800000002');
    const code = await latestCode('13800000002');
    const wrong = code === '000000' ? '111111' : '000000';
    for (let guess = 0; guess < 5; guess += 1) await resetPassword('sales1', '13800000002', wrong, 'New@2026');
    expect((await resetPassword('sales1', '13800000002', code, 'New@2026')).statusCode).toBe(400);
  });

  it('takes a must-change-password account from 601 to a normal login', async () => {
    t.clock.advance(SMS_RESEND_INTERVAL_MS);
    await t.db.update(users).set({ mustChangePassword: true }).where(eq(users.loginName, 'external1'));
    expect(await loginCode('external1', 'Demo@123')).toBe(601);
    await sendCode('external1', '13800000007');
    const code = await latestCode('13800000007');
    const same = await resetPassword('external1', '13800000007', code, 'Demo@123');
    expect(same.json().data.errors).toEqual([{ path: 'newPassword', message: 'must differ from the current password', key: 'validation.mustDiffer' }]);
    t.clock.advance(SMS_RESEND_INTERVAL_MS);
    await sendCode('external1', '13800000007');
    expect((await resetPassword('external1', '13800000007', await latestCode('13800000007'), 'Fresh@2026')).json().code).toBe(200);
    expect(await loginCode('external1', 'Fresh@2026')).toBe(200);
  });
});
