/** The recorded WeChat Pay v3 exchanges (fixtures/wechatpay.json) and a fetch that replays them. */
import { createVerify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { WechatPayEnv } from '../../src/env.js';
import type { HttpFetch } from '../../src/finance/providers/wechatpay.js';

interface RecordedExchange {
  request: { method: string; url: string; authorization: string; body: string };
  response: { status: number; headers: Record<string, string>; body: string };
}
interface RecordedNotification {
  headers: Record<string, string>;
  body: string;
}
export interface WechatPayFixture {
  now: string;
  nonce: string;
  config: Omit<WechatPayEnv, 'privateKeyPem' | 'platformCertPem'>;
  keys: { merchantPrivateKey: string; merchantPublicKey: string; platformCert: string };
  exchanges: Record<string, RecordedExchange>;
  notifications: Record<string, RecordedNotification>;
}

export const fixture = JSON.parse(readFileSync(new URL('./fixtures/wechatpay.json', import.meta.url), 'utf8')) as WechatPayFixture;

export const wechatConfig: WechatPayEnv = { ...fixture.config, privateKeyPem: fixture.keys.merchantPrivateKey, platformCertPem: fixture.keys.platformCert };

/** The environment variables that configure the same merchant. */
export const wechatEnv: Record<string, string> = {
  WECHATPAY_MCH_ID: fixture.config.mchId,
  WECHATPAY_APP_ID: fixture.config.appId,
  WECHATPAY_CERT_SERIAL: fixture.config.certSerial,
  WECHATPAY_PRIVATE_KEY: fixture.keys.merchantPrivateKey.replace(/\n/g, '\\n'),
  WECHATPAY_APIV3_KEY: fixture.config.apiV3Key,
  WECHATPAY_PLATFORM_CERT: fixture.keys.platformCert,
  WECHATPAY_PLATFORM_SERIAL: fixture.config.platformSerial!,
  WECHATPAY_NOTIFY_URL: fixture.config.notifyUrl,
};

/** Whether an Authorization header is a valid merchant signature over the request (checked independently of the provider). */
export function isMerchantSigned(authorization: string, method: string, pathWithQuery: string, body: string): boolean {
  const fields = Object.fromEntries([...authorization.matchAll(/(\w+)="([^"]*)"/g)].map((match) => [match[1], match[2]]));
  const text = `${method}\n${pathWithQuery}\n${fields.timestamp}\n${fields.nonce_str}\n${body}\n`;
  return authorization.startsWith('WECHATPAY2-SHA256-RSA2048 ') && createVerify('RSA-SHA256').update(text).verify(fixture.keys.merchantPublicKey, fields.signature ?? '', 'base64');
}

/**
 * A fetch answering each recorded request with its recorded answer. A request that differs from
 * every recording (url, method, body or signature) fails the test: nothing reaches the network.
 */
export function replayFetch(sent: string[] = []): HttpFetch {
  return async (url, init) => {
    const match = Object.entries(fixture.exchanges).find(([, exchange]) => exchange.request.url === url && exchange.request.method === init.method && exchange.request.body === (init.body ?? ''));
    if (!match) throw new Error(`no recorded exchange for ${init.method} ${url} ${init.body ?? ''}`);
    const [name, exchange] = match;
    if (init.headers.Authorization !== exchange.request.authorization) throw new Error(`${name}: Authorization differs from the recording`);
    sent.push(name);
    const headers = new Map(Object.entries(exchange.response.headers).map(([key, value]) => [key.toLowerCase(), value]));
    return { status: exchange.response.status, headers: { get: (key: string) => headers.get(key.toLowerCase()) ?? null }, text: async () => exchange.response.body };
  };
}
