import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMS_RESEND_INTERVAL_MS } from '../../../src/platform/sms.js';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';

/** The SMS outbox page (smsOutbox): how a code reaches its user in the demo, without a gateway. */
describe('the SMS outbox page (SmsOutbox)', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.loginAs('admin');
  });
  afterAll(() => t.close());

  const sendCode = (userName: string, phoneNum: string) => t.app.inject({ method: 'POST', url: '/api/Account/SendSmsCode', payload: { userName, phoneNum } });
  const search = (token: string, body: Record<string, unknown>) =>
    t.injectAs(token, { method: 'POST', url: '/api/SmsOutbox/Search?view=smsOutbox', payload: body });

  it('shows a code sent by SendSmsCode to a company admin, newest first, filtered by phone digits', async () => {
    expect((await sendCode('agent1', '13800000004')).statusCode).toBe(200);
    t.clock.advance(SMS_RESEND_INTERVAL_MS);
    expect((await sendCode('agent2', '13800000005')).statusCode).toBe(200);
    t.clock.advance(SMS_RESEND_INTERVAL_MS);
    expect((await sendCode('agent1', '13800000004')).statusCode).toBe(200);

    const all = await search(admin, { pageSize: 50 });
    expect(all.statusCode, all.body).toBe(200);
    const items = all.json().data.items as { id: number; phone: string; content: string }[];
    expect(items.map((row) => row.phone).slice(0, 3)).toEqual(['13800000004', '13800000005', '13800000004']);
    expect(items[0]!.content).toMatch(/\d{6}/);
    // Newest first: ids fall.
    expect(items.map((row) => row.id)).toEqual([...items.map((row) => row.id)].sort((a, b) => b - a));

    // Four digits match any part of the phone.
    const byPhone = await search(admin, { phone: '0005', pageSize: 50 });
    expect(byPhone.statusCode, byPhone.body).toBe(200);
    expect((byPhone.json().data.items as { phone: string }[]).map((row) => row.phone)).toEqual(['13800000005']);
  });

  it('refuses Export to a company admin: the rows are live codes, read on the page only', async () => {
    expect((await t.injectAs(admin, { method: 'GET', url: '/api/SmsOutbox/Export?view=smsOutbox' })).statusCode).toBe(403);
  });

  it('is not a write target', async () => {
    expect((await t.injectAs(admin, { method: 'POST', url: '/api/SmsOutbox/Add', payload: { phone: '13800000009', content: 'x' } })).statusCode).toBe(404);
  });

  it('answers 403 to an agent, who holds no such frame', async () => {
    const agent = await t.loginAs('agent1');
    expect((await search(agent, { pageSize: 10 })).statusCode).toBe(403);
  });
});
