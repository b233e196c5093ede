/**
 * The Tencent Cloud SMS provider through the official SDK, against a local server that checks each
 * request the SDK makes and answers a recorded Tencent Cloud answer (fixtures/tencent-sms): no network.
 */
import { desc, eq } from 'drizzle-orm';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { smsCodes } from '../../src/db/schema/index.js';
import { loadEnv } from '../../src/env.js';
import { createSmsProvider } from '../../src/platform/sms-providers/index.js';
import { SmsGatewayError, TencentSmsProvider } from '../../src/platform/sms-providers/tencent.js';
import type { SmsMessage } from '../../src/platform/sms.js';
import { OutboxSmsProvider } from '../../src/platform/sms.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/tencent-sms/${name}.json`, import.meta.url), 'utf8');

interface Recorded {
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

describe('Tencent Cloud SMS provider', () => {
  let gateway: Server;
  let endpoint: string;
  let answer = fixture('send-ok');
  const requests: Recorded[] = [];
  const silent = { info: () => undefined, warn: () => undefined };
  const settings = () => ({ secretId: 'AKIDtestsecretid0001', secretKey: 'testsecretkey0000000000000000001', sdkAppId: '1400006666', signName: '校园运营', templateId: '449739', region: 'ap-guangzhou', endpoint });
  const message: SmsMessage = { phone: '13800000004', template: 'verificationCode', params: { code: '123456', minutes: 5 }, purpose: 'resetPassword', text: '验证码 123456' };

  beforeAll(async () => {
    gateway = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        requests.push({ headers: request.headers, body: JSON.parse(body) as Record<string, unknown> });
        response.writeHead(200, { 'content-type': 'application/json' }).end(answer);
      });
    });
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => gateway.close(() => resolve())));
  beforeEach(() => {
    requests.length = 0;
    answer = fixture('send-ok');
  });

  it('sends the code as the template parameters, signed with TC3-HMAC-SHA256', async () => {
    await new TencentSmsProvider(settings(), silent).send(message);
    expect(requests).toHaveLength(1);
    const [sent] = requests;
    expect(sent!.headers['x-tc-action']).toBe('SendSms');
    expect(sent!.headers['x-tc-version']).toBe('2021-01-11');
    expect(sent!.headers['x-tc-region']).toBe('ap-guangzhou');
    // The credential scope names the service by the endpoint's first label: `sms` on sms.tencentcloudapi.com, `127` here.
    expect(sent!.headers.authorization).toMatch(/^TC3-HMAC-SHA256 Credential=AKIDtestsecretid0001\/\d{4}-\d{2}-\d{2}\/127\/tc3_request, SignedHeaders=[a-z;-]+, Signature=[0-9a-f]{64}$/);
    expect(sent!.body).toEqual({ PhoneNumberSet: ['+8613800000004'], SmsSdkAppId: '1400006666', SignName: '校园运营', TemplateId: '449739', TemplateParamSet: ['123456', '5'], SessionContext: 'resetPassword' });
  });

  it('throws the per-number refusal of the gateway with its code', async () => {
    answer = fixture('send-daily-limit');
    await expect(new TencentSmsProvider(settings(), silent).send(message)).rejects.toMatchObject({ name: 'SmsGatewayError', code: 'LimitExceeded.PhoneNumberDailyLimit' });
  });

  it('throws an API error answer (bad credentials) as a gateway error', async () => {
    answer = fixture('auth-failure');
    const failure = new TencentSmsProvider(settings(), silent).send(message);
    await expect(failure).rejects.toBeInstanceOf(SmsGatewayError);
    await expect(failure).rejects.toMatchObject({ code: 'AuthFailure.SecretIdNotFound', requestId: '6e1c5a0c-1d3a-4a8e-b5b1-3c7d9c2e0f42' });
  });

  it('is chosen by SMS_PROVIDER=tencent, which requires every setting; the outbox stays the default', () => {
    const base = { DATA_DIR: 'memory://' };
    expect(createSmsProvider(loadEnv(base), {} as never, silent as never)).toBeInstanceOf(OutboxSmsProvider);
    expect(() => loadEnv({ ...base, SMS_PROVIDER: 'tencent' })).toThrow(/TENCENT_SMS_SECRET_ID/);
    const env = loadEnv({ ...base, SMS_PROVIDER: 'tencent', TENCENT_SMS_SECRET_ID: 'AKIDtestsecretid0001', TENCENT_SMS_SECRET_KEY: 'testsecretkey0000000000000000001', TENCENT_SMS_SDK_APP_ID: '1400006666', TENCENT_SMS_SIGN_NAME: '校园运营', TENCENT_SMS_TEMPLATE_ID: '449739', TENCENT_SMS_ENDPOINT: endpoint });
    expect(createSmsProvider(env, {} as never, silent as never)).toBeInstanceOf(TencentSmsProvider);
  });

  describe('in the password reset', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ env: { SMS_PROVIDER: 'tencent', TENCENT_SMS_SECRET_ID: 'AKIDtestsecretid0001', TENCENT_SMS_SECRET_KEY: 'testsecretkey0000000000000000001', TENCENT_SMS_SDK_APP_ID: '1400006666', TENCENT_SMS_SIGN_NAME: '校园运营', TENCENT_SMS_TEMPLATE_ID: '449739', TENCENT_SMS_ENDPOINT: endpoint } });
    });
    afterAll(() => t.close());

    it('sends the reset code through the gateway, and a refusal answers 503 without holding the resend limit', async () => {
      const ask = () => t.app.inject({ method: 'POST', url: '/api/Account/SendSmsCode', payload: { userName: 'agent1', phoneNum: '13800000004' }, headers: { 'accept-language': 'en' } });
      answer = fixture('send-daily-limit');
      const refused = await ask();
      expect(refused.statusCode).toBe(503);
      expect(refused.json()).toMatchObject({ code: 503, key: 'error.smsNotSent' });
      expect(await t.db.select().from(smsCodes).where(eq(smsCodes.phone, '13800000004'))).toHaveLength(0);

      answer = fixture('send-ok');
      expect((await ask()).statusCode).toBe(200);
      expect(requests.at(-1)!.body).toMatchObject({ PhoneNumberSet: ['+8613800000004'], TemplateParamSet: [expect.stringMatching(/^\d{6}$/), '5'] });
      expect(await t.db.select().from(smsCodes).where(eq(smsCodes.phone, '13800000004')).orderBy(desc(smsCodes.id))).toHaveLength(1);
    });
  });
});
