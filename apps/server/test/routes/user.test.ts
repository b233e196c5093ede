import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smsOutbox, users } from '../../src/db/schema/index.js';
import { md5Hex } from '../../src/platform/passwords.js';
import { probesTypeKey, probesUserKey } from '../../src/platform/probes.js';
import { setSetting } from '../../src/platform/settings.js';
import { SMS_RESEND_INTERVAL_MS } from '../../src/platform/sms.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

describe('/api/User calls', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const get = async (token: string, url: string) => (await t.injectAs(token, { method: 'GET', url })).json();
  const post = (token: string, url: string, payload: object) => t.injectAs(token, { method: 'POST', url, payload });
  const latestCode = async (phone: string) => {
    const [message] = await t.db.select().from(smsOutbox).where(eq(smsOutbox.phone, phone)).orderBy(desc(smsOutbox.id)).limit(1);
    return /\d{6}/.exec(message!.content)![0];
  };

  describe('GET /api/User/GetLoginUserInfo', () => {
    it("answers the caller's profile", async () => {
      const { data } = await get(await t.loginAs('agent1'), '/api/User/GetLoginUserInfo');
      expect(data).toMatchObject({ loginName: 'agent1', type: 'agent', phoneNum: '13800000004', hasRefundPassword: false, schoolName: 'Campus Ops' });
      expect(data.lastLoginAt).toBe(t.clock.now().toISOString());
    });
  });

  describe('POST /api/User/UpdateLoginUserInfo', () => {
    it('updates the profile and clears fields sent empty', async () => {
      const token = await t.loginAs('sales1');
      const response = await post(token, '/api/User/UpdateLoginUserInfo', { name: '王经理', email: '', servicePhone1: '13911112222' });
      expect(response.json().data).toMatchObject({ name: '王经理', email: null, servicePhone1: '13911112222' });
    });

    it("saves an agent's own profile with its seeded 400 service phone", async () => {
      const token = await t.loginAs('agent1');
      const { data: profile } = await get(token, '/api/User/GetLoginUserInfo');
      expect(profile.servicePhone1).toBe('400-800-0004');
      const response = await post(token, '/api/User/UpdateLoginUserInfo', {
        name: profile.name,
        servicePhone1: profile.servicePhone1,
        servicePhone2: '010-62345678-12',
        servicePhone3: '8008001234',
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toMatchObject({ servicePhone1: '400-800-0004', servicePhone2: '010-62345678-12', servicePhone3: '8008001234' });
    });

    it('refuses a service phone that is no phone with the service-line message', async () => {
      const response = await t.injectAs(await t.loginAs('agent1'), { method: 'POST', url: '/api/User/UpdateLoginUserInfo', payload: { name: '代理商', servicePhone1: '400-80-0004' }, headers: { 'accept-language': 'en' } });
      expect(response.statusCode).toBe(400);
      expect(response.json().data.errors).toEqual([expect.objectContaining({ path: 'servicePhone1', key: 'validation.serviceLine' })]);
    });

    it('answers field errors for bad input', async () => {
      const response = await post(await t.loginAs('sales1'), '/api/User/UpdateLoginUserInfo', { name: '', servicePhone2: '123' });
      expect(response.statusCode).toBe(400);
      expect(response.json().data.errors.map((error: { path: string }) => error.path).sort()).toEqual(['name', 'servicePhone2']);
    });
  });

  describe('GET /api/User/GetVisibilityProbes', () => {
    it('derives the probes from the user type', async () => {
      expect((await get(await t.loginAs('agent1'), '/api/User/GetVisibilityProbes')).data).toMatchObject({ isAgent: true, hideAmountColumns: false, canSetLicense: true });
      expect((await get(await t.loginAs('child1'), '/api/User/GetVisibilityProbes')).data).toMatchObject({ isAgent: true, hideAmountColumns: true });
      expect((await get(await t.loginAs('external1'), '/api/User/GetVisibilityProbes')).data).toMatchObject({ isAgent: false, hideAmountColumns: true });
      expect((await get(await t.loginAs('admin'), '/api/User/GetVisibilityProbes')).data).toMatchObject({ isAgent: false, canSetAgentMerchantId: true });
    });

    it('applies the type setting, then the per-user setting', async () => {
      const token = await t.loginAs('agent2');
      const [agent2] = await t.db.select().from(users).where(eq(users.loginName, 'agent2'));
      await setSetting(t.db, probesTypeKey('agent'), { canSetLicense: false, hideAmountColumns: true });
      await setSetting(t.db, probesUserKey(agent2!.id), { hideAmountColumns: false });
      expect((await get(token, '/api/User/GetVisibilityProbes')).data).toMatchObject({ canSetLicense: false, hideAmountColumns: false, isAgent: true });
    });
  });

  describe('POST /api/User/SendSmsCode', () => {
    it("sends a code to the caller's own phone and answers it masked", async () => {
      const response = await post(await t.loginAs('agent1'), '/api/User/SendSmsCode', { purpose: 'password' });
      expect(response.json()).toEqual({ code: 200, message: 'ok', data: { phoneMasked: '138****0004' } });
      expect(await latestCode('13800000004')).toMatch(/^\d{6}$/);
    });
  });

  describe('POST /api/User/UpdateLoginUserPassword', () => {
    it('refuses a wrong old password', async () => {
      const response = await post(await t.loginAs('agent2'), '/api/User/UpdateLoginUserPassword', {
        oldPassword: md5Hex('wrong'),
        newPassword: md5Hex('New@2026'),
        smsCode: '123456',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().data.errors).toEqual([{ path: 'oldPassword', message: 'password error', key: 'validation.wrongPassword' }]);
    });

    it('changes the password with the SMS code and ends the other sessions only', async () => {
      t.clock.advance(SMS_RESEND_INTERVAL_MS);
      const other = await t.loginAs('child1');
      const current = await t.loginAs('child1');
      await post(current, '/api/User/SendSmsCode', { purpose: 'password' });
      const response = await post(current, '/api/User/UpdateLoginUserPassword', {
        oldPassword: md5Hex('Demo@123'),
        newPassword: md5Hex('Child@2026'),
        smsCode: await latestCode('13800000006'),
      });
      expect(response.json().code).toBe(200);
      expect((await t.injectAs(current, { method: 'GET', url: '/api/User/GetLoginUserInfo' })).statusCode).toBe(200);
      expect((await t.injectAs(other, { method: 'GET', url: '/api/User/GetLoginUserInfo' })).json().code).toBe('10010');
      await t.login('child1', 'Child@2026');
    });

    it('refuses a code sent for another purpose', async () => {
      t.clock.advance(SMS_RESEND_INTERVAL_MS);
      const token = await t.loginAs('sales2');
      await post(token, '/api/User/SendSmsCode', { purpose: 'refundPassword' });
      const response = await post(token, '/api/User/UpdateLoginUserPassword', {
        oldPassword: md5Hex('Demo@123'),
        newPassword: md5Hex('New@2026'),
        smsCode: await latestCode('13800000003'),
      });
      expect(response.json().data.errors).toEqual([{ path: 'smsCode', message: 'wrong or expired verification code', key: 'validation.wrongSmsCode' }]);
    });
  });

  describe('POST /api/User/UpdateRefundPassword', () => {
    it('sets the refund password with the login password and the SMS code', async () => {
      t.clock.advance(SMS_RESEND_INTERVAL_MS);
      const token = await t.loginAs('admin');
      await post(token, '/api/User/SendSmsCode', { purpose: 'refundPassword' });
      const response = await post(token, '/api/User/UpdateRefundPassword', {
        loginPassword: md5Hex('Admin@123'),
        refundPassword: md5Hex('Refund@1'),
        smsCode: await latestCode('13800000001'),
      });
      expect(response.json().code).toBe(200);
      expect((await get(token, '/api/User/GetLoginUserInfo')).data.hasRefundPassword).toBe(true);
    });
  });
});
