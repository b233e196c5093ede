/**
 * A WeChat Pay stand-in for the channel's tests: keys made for the test run, an HTTP fetch that answers
 * an APP prepay with a platform-signed prepay id, and payment notifications signed and encrypted as
 * the platform sends them. Nothing reaches the network.
 */
import { createCipheriv, createSign, generateKeyPairSync, randomBytes } from 'node:crypto';
import type { HttpFetch } from '../../src/finance/providers/wechatpay.js';

const merchant = generateKeyPairSync('rsa', { modulusLength: 2048 });
const platform = generateKeyPairSync('rsa', { modulusLength: 2048 });
const pem = (key: { export(options: { type: 'pkcs8' | 'spki'; format: 'pem' }): string | Buffer }, type: 'pkcs8' | 'spki') => String(key.export({ type, format: 'pem' }));

export const FAKE_WECHAT = {
  mchId: '1900000109',
  appId: 'wx0123456789abcdef',
  apiV3Key: 'abcdefghijklmnopqrstuvwxyz012345',
  platformSerial: 'PLATFORMSERIAL01',
  merchantPublicKey: pem(merchant.publicKey, 'spki'),
};

/** The environment that configures the fake merchant as the active provider. */
export const fakeWechatEnv: Record<string, string> = {
  PAYMENT_PROVIDER: 'wechatpay',
  WECHATPAY_MCH_ID: FAKE_WECHAT.mchId,
  WECHATPAY_APP_ID: FAKE_WECHAT.appId,
  WECHATPAY_CERT_SERIAL: 'ABCDEF0123456789',
  WECHATPAY_PRIVATE_KEY: pem(merchant.privateKey, 'pkcs8'),
  WECHATPAY_APIV3_KEY: FAKE_WECHAT.apiV3Key,
  WECHATPAY_PLATFORM_CERT: pem(platform.publicKey, 'spki'),
  WECHATPAY_PLATFORM_SERIAL: FAKE_WECHAT.platformSerial,
  WECHATPAY_NOTIFY_URL: 'https://campus.example.com/api/Pay/Notify/WechatPay',
};

/** Headers the platform signs an answer or notification body with, at `now`. */
function platformHeaders(body: string, now: Date): Record<string, string> {
  const timestamp = String(Math.floor(now.getTime() / 1000));
  const nonce = randomBytes(16).toString('hex');
  const signature = createSign('RSA-SHA256').update(`${timestamp}\n${nonce}\n${body}\n`).sign(platform.privateKey, 'base64');
  return { 'Wechatpay-Timestamp': timestamp, 'Wechatpay-Nonce': nonce, 'Wechatpay-Signature': signature, 'Wechatpay-Serial': FAKE_WECHAT.platformSerial };
}

/** Orders the fake platform received (the bodies of APP prepay calls). */
export type ReceivedOrders = Record<string, unknown>[];

/** A fetch answering APP prepay calls with a prepay id, signed by the platform at the clock's time. */
export function fakeWechatFetch(received: ReceivedOrders, now: () => Date): HttpFetch {
  return async (url, init) => {
    if (!url.endsWith('/v3/pay/transactions/app') || init.method !== 'POST') throw new Error(`the fake WeChat Pay has no ${init.method} ${url}`);
    received.push(JSON.parse(init.body ?? '{}') as Record<string, unknown>);
    const body = JSON.stringify({ prepay_id: `wx${received.length.toString().padStart(30, '0')}` });
    const headers = new Map(Object.entries(platformHeaders(body, now())).map(([key, value]) => [key.toLowerCase(), value]));
    return { status: 200, headers: { get: (name: string) => headers.get(name.toLowerCase()) ?? null }, text: async () => body };
  };
}

/** The notification WeChat Pay posts when the order `order` (a received prepay body) is paid. */
export function paidNotification(order: Record<string, unknown>, now: Date): { headers: Record<string, string>; body: string } {
  const content = JSON.stringify({
    mchid: FAKE_WECHAT.mchId,
    appid: FAKE_WECHAT.appId,
    out_trade_no: order.out_trade_no,
    transaction_id: `4200000${String(order.out_trade_no).slice(-15)}`,
    trade_type: 'APP',
    trade_state: 'SUCCESS',
    attach: order.attach,
    success_time: now.toISOString(),
    amount: { total: (order.amount as { total: number }).total, currency: 'CNY' },
  });
  const nonce = randomBytes(6).toString('hex');
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(FAKE_WECHAT.apiV3Key, 'utf8'), Buffer.from(nonce, 'utf8'));
  cipher.setAAD(Buffer.from('transaction', 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(content, 'utf8'), cipher.final(), cipher.getAuthTag()]).toString('base64');
  const body = JSON.stringify({
    id: `EV-${String(order.out_trade_no)}`,
    event_type: 'TRANSACTION.SUCCESS',
    resource_type: 'encrypt-resource',
    resource: { algorithm: 'AEAD_AES_256_GCM', ciphertext, nonce, associated_data: 'transaction' },
  });
  return { headers: { ...platformHeaders(body, now), 'content-type': 'application/json' }, body };
}
