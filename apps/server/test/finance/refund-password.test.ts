import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema/index.js';
import { hashPassword, md5Hex } from '../../src/platform/passwords.js';
import { REFUND_PASSWORD_LOCK_MS, checkRefundPassword } from '../../src/platform/refund-password.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

describe('refund password', () => {
  let t: TestApp;
  let adminId: number;
  beforeAll(async () => {
    t = await createTestApp();
    const [admin] = await t.db.select().from(users).where(eq(users.loginName, 'admin'));
    adminId = admin!.id;
  });
  afterAll(() => t.close());

  const attempt = (plain: string) => checkRefundPassword(t.db, adminId, md5Hex(plain), t.clock.now()).then(() => 'ok', (error: unknown) => error);
  const problemKey = (outcome: unknown) => (outcome as { fieldProblems?: { key: string }[] }).fieldProblems?.[0]?.key;

  it('asks for a refund password to be set first', async () => {
    await t.db.update(users).set({ refundPasswordHash: null }).where(eq(users.id, adminId));
    expect(problemKey(await attempt('Refund@1'))).toBe('workflow.noRefundPassword');
  });

  it('locks the operator for 10 minutes after five wrong answers, even against the right one', async () => {
    await t.db.update(users).set({ refundPasswordHash: await hashPassword(md5Hex('Refund@1')) }).where(eq(users.id, adminId));
    for (let i = 0; i < 4; i += 1) expect(problemKey(await attempt('wrong'))).toBe('workflow.wrongRefundPassword');
    expect(problemKey(await attempt('wrong'))).toBe('refundPassword.locked');
    expect(problemKey(await attempt('Refund@1'))).toBe('refundPassword.locked');
    t.clock.advance(REFUND_PASSWORD_LOCK_MS - 1000);
    expect(problemKey(await attempt('Refund@1'))).toBe('refundPassword.locked');
    t.clock.advance(2000);
    expect(await attempt('Refund@1')).toBe('ok');
  });

  it('forgets wrong answers once the right one is given', async () => {
    for (let i = 0; i < 4; i += 1) await attempt('wrong');
    expect(await attempt('Refund@1')).toBe('ok');
    const [row] = await t.db.select({ failures: users.refundPasswordFailures }).from(users).where(eq(users.id, adminId));
    expect(row!.failures).toBe(0);
    expect(problemKey(await attempt('wrong'))).toBe('workflow.wrongRefundPassword');
  });

  it('lets only company users who may refund set one', async () => {
    const agent = await t.loginAs('agent1');
    const info = (await t.injectAs(agent, { method: 'GET', url: '/api/User/GetLoginUserInfo' })).json().data;
    expect(info.canSetRefundPassword).toBe(false);
    const refused = await t.injectAs(agent, {
      method: 'POST',
      url: '/api/User/UpdateRefundPassword',
      payload: { loginPassword: md5Hex('Demo@123'), refundPassword: md5Hex('Refund@1'), smsCode: '123456' },
    });
    expect(refused.statusCode).toBe(403);
    const admin = await t.loginAs('admin');
    expect((await t.injectAs(admin, { method: 'GET', url: '/api/User/GetLoginUserInfo' })).json().data.canSetRefundPassword).toBe(true);
  });
});
