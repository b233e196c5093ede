import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPTCHA_TTL_MS, consumeCaptcha, issueCaptcha } from '../../../src/platform/captcha.js';
import { md5Hex } from '../../../src/platform/passwords.js';
import { CAPTCHA_CODE, createTestApp, type TestApp } from '../../helpers/test-app.js';

describe('GET /api/Account/GetVerificationCode', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const newCaptcha = async () => (await t.app.inject({ method: 'GET', url: '/api/Account/GetVerificationCode' })).json().data as { vcId: string; image: string };
  const loginWith = (vcId: string, vcCode = CAPTCHA_CODE) =>
    t.app.inject({ method: 'POST', url: '/api/Account/Login_web', payload: { userName: 'agent1', password: md5Hex('Demo@123'), vcId, vcCode } });

  it('answers an id and an SVG data URL without a session', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/Account/GetVerificationCode' });
    expect(response.statusCode).toBe(200);
    const { vcId, image } = response.json().data;
    expect(vcId).toMatch(/^[0-9a-f-]{36}$/);
    expect(image).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(image.split(',')[1], 'base64').toString()).toContain('<svg');
  });

  it('accepts a captcha once only', async () => {
    const { vcId } = await newCaptcha();
    expect((await loginWith(vcId)).json().code).toBe(200);
    const second = (await loginWith(vcId)).json();
    expect(second).toMatchObject({ code: 600, message: 'verification code error' });
  });

  it('is used up by a wrong answer too', async () => {
    const { vcId } = await newCaptcha();
    expect((await loginWith(vcId, 'nope')).json().code).toBe(600);
    expect((await loginWith(vcId)).json()).toMatchObject({ code: 600, message: 'verification code error' });
  });

  it('expires after two minutes', async () => {
    const inTime = await newCaptcha();
    t.clock.advance(CAPTCHA_TTL_MS - 1000);
    expect((await loginWith(inTime.vcId)).json().code).toBe(200);
    const late = await newCaptcha();
    t.clock.advance(CAPTCHA_TTL_MS);
    expect((await loginWith(late.vcId)).json()).toMatchObject({ code: 600, message: 'verification code error' });
  });

  it('compares answers case-insensitively', async () => {
    const now = t.clock.now();
    const { vcId } = await issueCaptcha(t.db, now, 'AbCd');
    expect(await consumeCaptcha(t.db, vcId, 'aBcD', now)).toBe(true);
  });

  it('rejects an unknown or malformed id', async () => {
    expect((await loginWith('not-a-uuid')).json().code).toBe(600);
    expect((await loginWith('6e93624e-15fe-4498-bbd6-ef70d16daa90')).json().code).toBe(600);
  });
});
