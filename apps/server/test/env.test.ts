import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EnvError, REPO_ROOT, loadEnv, parseDuration } from '../src/env.js';
import { wechatEnv } from './finance/wechatpay-fixture.js';

describe('loadEnv', () => {
  it('configures WeChat Pay only when complete, and names the missing or broken variable without echoing secrets', () => {
    expect(loadEnv({}).wechatPay).toBeUndefined();
    const env = loadEnv({ ...wechatEnv, PAYMENT_PROVIDER: 'wechatpay' });
    expect(env.wechatPay).toMatchObject({ mchId: '1900000109', baseUrl: 'https://api.mch.weixin.qq.com', timeoutMs: 10_000 });
    expect(env.wechatPay!.privateKeyPem).toContain('-----BEGIN PRIVATE KEY-----\n');
    expect(() => loadEnv({ PAYMENT_PROVIDER: 'wechatpay' })).toThrow(/WECHATPAY_MCH_ID is required/);
    expect(() => loadEnv({ ...wechatEnv, WECHATPAY_APIV3_KEY: undefined })).toThrow(/WECHATPAY_APIV3_KEY is required/);
    expect(() => loadEnv({ ...wechatEnv, WECHATPAY_PRIVATE_KEY: 'not a key' })).toThrow(/^Invalid environment: WECHATPAY_PRIVATE_KEY must be a PEM private key$/);
    expect(() => loadEnv({ ...wechatEnv, WECHATPAY_NOTIFY_URL: 'http://plain.example.com/x' })).toThrow(/WECHATPAY_NOTIFY_URL must be an https/);
  });

  it('applies the defaults', () => {
    const env = loadEnv({});
    expect(env.PORT).toBe(8080);
    expect(env.HOST).toBe('0.0.0.0');
    expect(env.tokenTtlMs).toBe(30 * 60_000);
    expect(env.DATA_DIR).toBe(path.join(REPO_ROOT, 'data'));
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it('sheds load by default, takes 0 as "off", and refuses a limit that is not a whole number', () => {
    expect(loadEnv({})).toMatchObject({ SHED_EVENT_LOOP_DELAY_MS: 1000, SHED_EVENT_LOOP_UTILIZATION: 90, SHED_DB_QUEUE: 50, SHED_DB_WAIT_MS: 500, SHED_MAX_IN_FLIGHT: 0 });
    expect(loadEnv({ SHED_DB_QUEUE: '0', SHED_MAX_IN_FLIGHT: '16' })).toMatchObject({ SHED_DB_QUEUE: 0, SHED_MAX_IN_FLIGHT: 16 });
    expect(() => loadEnv({ SHED_DB_WAIT_MS: '-1' })).toThrow(/SHED_DB_WAIT_MS/);
    expect(() => loadEnv({ SHED_EVENT_LOOP_UTILIZATION: '150' })).toThrow(/SHED_EVENT_LOOP_UTILIZATION must be a percentage up to 100/);
  });

  it('refuses a bad PORT with one line naming the variable', () => {
    expect(() => loadEnv({ PORT: 'abc' })).toThrow(EnvError);
    expect(() => loadEnv({ PORT: '70000' })).toThrow(/^Invalid environment: PORT must be a port number between 1 and 65535 \(got '70000'\)$/);
  });

  it('parses TOKEN_TTL durations and refuses nonsense', () => {
    expect(loadEnv({ TOKEN_TTL: '30m' }).tokenTtlMs).toBe(30 * 60_000);
    expect(loadEnv({ TOKEN_TTL: '1d' }).tokenTtlMs).toBe(86_400_000);
    expect(() => loadEnv({ TOKEN_TTL: 'soon' })).toThrow(/TOKEN_TTL/);
    // ASVS 3.3.2 at L2: 30 minutes idle and 12 hours in all, unless the operator says otherwise.
    expect(loadEnv({}).sessionLimits).toEqual({ idleMs: 30 * 60_000, maxAgeMs: 12 * 3_600_000 });
    expect(loadEnv({ SESSION_MAX_AGE: '8h' }).sessionLimits.maxAgeMs).toBe(8 * 3_600_000);
    expect(() => loadEnv({ SESSION_MAX_AGE: 'never' })).toThrow(/SESSION_MAX_AGE/);
    expect(parseDuration('0h')).toBeUndefined();
  });

  it('refuses CAPTCHA_FIXED_CODE in production', () => {
    expect(() => loadEnv({ NODE_ENV: 'production', CAPTCHA_FIXED_CODE: '1234' })).toThrow(/CAPTCHA_FIXED_CODE must not be set/);
    expect(loadEnv({ NODE_ENV: 'test', CAPTCHA_FIXED_CODE: '1234' }).CAPTCHA_FIXED_CODE).toBe('1234');
  });

  it('does not echo secrets in the error line', () => {
    expect(() => loadEnv({ DATABASE_URL: 'mysql://user:secret@host/db' })).toThrow(/^Invalid environment: DATABASE_URL must start with postgres/);
    expect(() => loadEnv({ DATABASE_URL: 'mysql://user:secret@host/db' })).not.toThrow(/secret/);
  });

  it('resolves a relative DATA_DIR from where npm was started', () => {
    expect(loadEnv({ DATA_DIR: 'my-data', INIT_CWD: '/srv/campus' }).DATA_DIR).toBe('/srv/campus/my-data');
  });

  it('keeps uploads beside the data unless UPLOAD_DIR says otherwise, with size limits in MB', () => {
    const env = loadEnv({ DATA_DIR: '/srv/campus/data' });
    expect(env.UPLOAD_DIR).toBe('/srv/campus/data/uploads');
    expect([env.UPLOAD_IMAGE_MAX_MB, env.UPLOAD_VIDEO_MAX_MB]).toEqual([5, 200]);
    expect(loadEnv({ UPLOAD_DIR: 'files', INIT_CWD: '/srv/campus' }).UPLOAD_DIR).toBe('/srv/campus/files');
    expect(loadEnv({ UPLOAD_IMAGE_MAX_MB: '0.5' }).UPLOAD_IMAGE_MAX_MB).toBe(0.5);
    expect(() => loadEnv({ UPLOAD_VIDEO_MAX_MB: 'lots' })).toThrow(/^Invalid environment: UPLOAD_VIDEO_MAX_MB must be a number of megabytes/);
    expect(() => loadEnv({ UPLOAD_IMAGE_MAX_MB: '0' })).toThrow(/UPLOAD_IMAGE_MAX_MB/);
  });
});
