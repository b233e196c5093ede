/**
 * WeChat Pay API v3 (商户直连): Native and APP payments, refunds by `out_refund_no`, and notifications.
 * Every request is signed WECHATPAY2-SHA256-RSA2048 with the merchant's private key; every answer and
 * notification is verified against the platform certificate before a byte of it is believed, and a
 * notification's resource is decrypted with the APIv3 key (AEAD_AES_256_GCM). The HTTP fetch is
 * injected: tests replay recorded exchanges, never the network.
 */
import { X509Certificate, createDecipheriv, createPrivateKey, createPublicKey, createSign, createVerify, randomBytes, type KeyObject } from 'node:crypto';
import type { WechatAppPayParams } from '@campus/contract';
import type { WechatPayEnv } from '../../env.js';
import type { Clock } from '../../platform/clock.js';
import {
  NotificationRefused,
  type IncomingNotification,
  type PayAnswer,
  type PayRequest,
  type PaymentProvider,
  type PaymentQueryAnswer,
  type ProviderNotification,
  type RefundAnswer,
  type RefundRequest,
} from './types.js';

/** The merchant's settings, from the WECHATPAY_* environment (env.ts validates them at boot). */
export type WechatPayConfig = WechatPayEnv;

/** The subset of fetch the provider uses: tests inject a replay of recorded exchanges. */
export type HttpFetch = (url: string, init: { method: string; headers: Record<string, string>; body?: string; signal?: AbortSignal }) => Promise<{
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}>;

/** Answers and notifications older or newer than this are refused (replays). */
const MAX_CLOCK_SKEW_S = 300;
const SCHEMA = 'WECHATPAY2-SHA256-RSA2048';

/** Error codes after which the same request may well succeed: the outcome is unknown, not failed. */
const RETRYABLE_CODES = new Set(['SYSTEM_ERROR', 'FREQUENCY_LIMITED', 'BIZERR_NEED_RETRY']);

/** The platform key from a certificate or a bare public key PEM. */
export function platformKeyOf(pem: string): KeyObject {
  return pem.includes('BEGIN CERTIFICATE') ? new X509Certificate(pem).publicKey : createPublicKey(pem);
}

/** The text WeChat Pay signs for a request: method, path with query, timestamp, nonce, body. */
export function requestMessage(method: string, pathWithQuery: string, timestamp: string, nonce: string, body: string): string {
  return `${method}\n${pathWithQuery}\n${timestamp}\n${nonce}\n${body}\n`;
}

/** The text the platform signs for an answer or a notification. */
export function answerMessage(timestamp: string, nonce: string, body: string): string {
  return `${timestamp}\n${nonce}\n${body}\n`;
}

/** Decrypts a notification's resource (AEAD_AES_256_GCM: the last 16 bytes of the ciphertext are the tag). */
export function decryptResource(apiV3Key: string, resource: { ciphertext: string; nonce: string; associated_data?: string }): string {
  const data = Buffer.from(resource.ciphertext, 'base64');
  if (data.length < 17) throw new NotificationRefused('ciphertext too short');
  const decipher = createDecipheriv('aes-256-gcm', Buffer.from(apiV3Key, 'utf8'), Buffer.from(resource.nonce, 'utf8'));
  decipher.setAuthTag(data.subarray(data.length - 16));
  decipher.setAAD(Buffer.from(resource.associated_data ?? '', 'utf8'));
  try {
    return Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString('utf8');
  } catch {
    throw new NotificationRefused('resource does not decrypt with the APIv3 key');
  }
}

const header = (headers: IncomingNotification['headers'], name: string): string | undefined => {
  const value = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
};

function refundOutcomeOf(status: unknown): RefundAnswer['outcome'] {
  switch (status) {
    case 'SUCCESS':
      return 'succeeded';
    case 'PROCESSING':
      return 'pending';
    case 'CLOSED':
    case 'ABNORMAL':
      return 'failed';
    default:
      return 'unknown';
  }
}

function tradeOutcomeOf(state: unknown): PaymentQueryAnswer['outcome'] {
  switch (state) {
    case 'SUCCESS':
    case 'REFUND':
      return 'paid';
    case 'NOTPAY':
    case 'USERPAYING':
      return 'pending';
    case 'CLOSED':
    case 'REVOKED':
      return 'closed';
    case 'PAYERROR':
      return 'failed';
    default:
      return 'unknown';
  }
}

type Json = Record<string, unknown>;
type Exchange = { kind: 'answer'; status: number; body: Json } | { kind: 'unknown'; message: string };

export class WechatPayProvider implements PaymentProvider {
  readonly name = 'wechatpay' as const;
  private readonly privateKey: KeyObject;
  private readonly platformKey: KeyObject;

  constructor(
    private readonly config: WechatPayConfig,
    private readonly fetch: HttpFetch,
    private readonly clock: Clock,
    /** Tests fix the nonce so a recorded request's signature is reproduced exactly. */
    private readonly nonce: () => string = () => randomBytes(16).toString('hex').toUpperCase(),
  ) {
    this.privateKey = createPrivateKey(config.privateKeyPem);
    this.platformKey = platformKeyOf(config.platformCertPem);
  }

  /** The Authorization header of one request. */
  authorization(method: string, pathWithQuery: string, body: string): string {
    const timestamp = String(Math.floor(this.clock.now().getTime() / 1000));
    const nonce = this.nonce();
    const signature = createSign('RSA-SHA256').update(requestMessage(method, pathWithQuery, timestamp, nonce, body)).sign(this.privateKey, 'base64');
    return `${SCHEMA} mchid="${this.config.mchId}",nonce_str="${nonce}",signature="${signature}",timestamp="${timestamp}",serial_no="${this.config.certSerial}"`;
  }

  /** Whether a platform signature over `body` checks out, with a fresh timestamp and the expected serial. */
  private isSignedByPlatform(get: (name: string) => string | undefined, body: string): boolean {
    const timestamp = get('Wechatpay-Timestamp');
    const nonce = get('Wechatpay-Nonce');
    const signature = get('Wechatpay-Signature');
    const serial = get('Wechatpay-Serial');
    if (!timestamp || !nonce || !signature || !/^\d{1,12}$/.test(timestamp)) return false;
    if (this.config.platformSerial && serial !== this.config.platformSerial) return false;
    if (Math.abs(this.clock.now().getTime() / 1000 - Number(timestamp)) > MAX_CLOCK_SKEW_S) return false;
    try {
      return createVerify('RSA-SHA256').update(answerMessage(timestamp, nonce, body)).verify(this.platformKey, signature, 'base64');
    } catch {
      return false;
    }
  }

  /**
   * One signed call. No answer, an answer that is not signed by the platform, a 5xx or a retryable
   * code is `unknown`: the request may or may not have taken effect, so only a query may settle it.
   */
  private async exchange(method: 'GET' | 'POST', pathWithQuery: string, payload?: Json): Promise<Exchange> {
    const body = payload === undefined ? '' : JSON.stringify(payload);
    let response: Awaited<ReturnType<HttpFetch>>;
    let text: string;
    try {
      response = await this.fetch(`${this.config.baseUrl}${pathWithQuery}`, {
        method,
        headers: {
          Accept: 'application/json',
          'Content-Type': 'application/json',
          'User-Agent': 'campus-ops-console',
          Authorization: this.authorization(method, pathWithQuery, body),
        },
        ...(payload === undefined ? {} : { body }),
        signal: AbortSignal.timeout(this.config.timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      return { kind: 'unknown', message: error instanceof Error ? `${error.name}: ${error.message}` : 'no answer' };
    }
    if (response.status >= 500) return { kind: 'unknown', message: `HTTP ${response.status}` };
    if (!this.isSignedByPlatform((name) => response.headers.get(name) ?? undefined, text)) {
      return { kind: 'unknown', message: `HTTP ${response.status}: answer not signed by the platform` };
    }
    let json: Json;
    try {
      json = text === '' ? {} : (JSON.parse(text) as Json);
    } catch {
      return { kind: 'unknown', message: `HTTP ${response.status}: answer is not JSON` };
    }
    if (response.status >= 400 && RETRYABLE_CODES.has(String(json.code))) return { kind: 'unknown', message: `${String(json.code)}: ${String(json.message ?? '')}` };
    return { kind: 'answer', status: response.status, body: json };
  }

  private static failure(body: Json): string {
    return `${String(body.code ?? 'ERROR')}: ${String(body.message ?? '')}`.slice(0, 500);
  }

  async pay(request: PayRequest): Promise<PayAnswer> {
    const isApp = request.scene === 'app';
    const answer = await this.exchange('POST', isApp ? '/v3/pay/transactions/app' : '/v3/pay/transactions/native', {
      appid: this.config.appId,
      mchid: this.config.mchId,
      description: request.description,
      out_trade_no: request.outTradeNo,
      notify_url: this.config.notifyUrl,
      ...(request.attach ? { attach: request.attach } : {}),
      amount: { total: request.amount, currency: 'CNY' },
    });
    if (answer.kind === 'unknown') return { outcome: 'unknown', message: answer.message };
    if (answer.status >= 400) return { outcome: 'failed', message: WechatPayProvider.failure(answer.body) };
    if (!isApp) return { outcome: 'pending', payUrl: String(answer.body.code_url ?? '') };
    if (typeof answer.body.prepay_id !== 'string') return { outcome: 'unknown', message: 'answer without prepay_id' };
    return { outcome: 'pending', appPayParams: this.appPayParams(answer.body.prepay_id) };
  }

  /**
   * What the app's WeChat SDK opens the payment with (APP 调起支付): the prepay id and a merchant
   * signature over the app id, timestamp, nonce and prepay id, each followed by a newline.
   */
  appPayParams(prepayId: string): WechatAppPayParams {
    const timestamp = String(Math.floor(this.clock.now().getTime() / 1000));
    const nonce = this.nonce();
    const sign = createSign('RSA-SHA256').update(`${this.config.appId}\n${timestamp}\n${nonce}\n${prepayId}\n`).sign(this.privateKey, 'base64');
    return { appid: this.config.appId, partnerid: this.config.mchId, prepayid: prepayId, package: 'Sign=WXPay', noncestr: nonce, timestamp, sign };
  }

  async query(outTradeNo: string): Promise<PaymentQueryAnswer> {
    const path = `/v3/pay/transactions/out-trade-no/${encodeURIComponent(outTradeNo)}?mchid=${encodeURIComponent(this.config.mchId)}`;
    const answer = await this.exchange('GET', path);
    if (answer.kind === 'unknown') return { outcome: 'unknown', message: answer.message };
    if (answer.status >= 400) return { outcome: 'failed', message: WechatPayProvider.failure(answer.body) };
    const amount = answer.body.amount as Json | undefined;
    return {
      outcome: tradeOutcomeOf(answer.body.trade_state),
      providerTradeNo: typeof answer.body.transaction_id === 'string' ? answer.body.transaction_id : undefined,
      amount: typeof amount?.total === 'number' ? amount.total : undefined,
    };
  }

  private refundAnswerOf(answer: Exchange): RefundAnswer {
    if (answer.kind === 'unknown') return { outcome: 'unknown', message: answer.message };
    if (answer.status >= 400) return { outcome: 'failed', message: WechatPayProvider.failure(answer.body) };
    const outcome = refundOutcomeOf(answer.body.status);
    return {
      outcome,
      providerRefundNo: typeof answer.body.refund_id === 'string' ? answer.body.refund_id : undefined,
      ...(outcome === 'failed' ? { message: `refund ${String(answer.body.status)}` } : {}),
    };
  }

  async refund(request: RefundRequest): Promise<RefundAnswer> {
    return this.refundAnswerOf(
      await this.exchange('POST', '/v3/refund/domestic/refunds', {
        out_trade_no: request.outTradeNo,
        out_refund_no: request.outRefundNo,
        ...(request.reason ? { reason: request.reason.slice(0, 80) } : {}),
        notify_url: this.config.notifyUrl,
        amount: { refund: request.refundAmount, total: request.totalAmount, currency: 'CNY' },
      }),
    );
  }

  async queryRefund(outRefundNo: string): Promise<RefundAnswer> {
    return this.refundAnswerOf(await this.exchange('GET', `/v3/refund/domestic/refunds/${encodeURIComponent(outRefundNo)}`));
  }

  async verifyNotification(incoming: IncomingNotification): Promise<ProviderNotification> {
    // Nothing of the body is read before its signature checks out.
    if (!this.isSignedByPlatform((name) => header(incoming.headers, name), incoming.rawBody)) throw new NotificationRefused('signature does not verify');
    let envelope: Json;
    try {
      envelope = JSON.parse(incoming.rawBody) as Json;
    } catch {
      throw new NotificationRefused('body is not JSON');
    }
    const resource = envelope.resource as { algorithm?: string; ciphertext?: string; nonce?: string; associated_data?: string } | undefined;
    if (typeof envelope.id !== 'string' || resource?.algorithm !== 'AEAD_AES_256_GCM' || typeof resource.ciphertext !== 'string' || typeof resource.nonce !== 'string') {
      throw new NotificationRefused('not a WeChat Pay v3 notification');
    }
    let content: Json;
    try {
      content = JSON.parse(decryptResource(this.config.apiV3Key, { ciphertext: resource.ciphertext, nonce: resource.nonce, associated_data: resource.associated_data })) as Json;
    } catch (error) {
      if (error instanceof NotificationRefused) throw error;
      throw new NotificationRefused('resource is not JSON');
    }
    // The platform signs for every merchant it serves: a notification naming another merchant or app is
    // about someone else's money and must never be recorded here (refund notifications carry no appid).
    if (content.mchid !== this.config.mchId) throw new NotificationRefused(`notification for merchant ${String(content.mchid)}, not ${this.config.mchId}`);
    const eventType = String(envelope.event_type ?? '');
    const isRefund = eventType.startsWith('REFUND.');
    if ((!isRefund || content.appid !== undefined) && content.appid !== this.config.appId) {
      throw new NotificationRefused(`notification for app ${String(content.appid)}, not ${this.config.appId}`);
    }
    if (isRefund) {
      if (typeof content.out_refund_no !== 'string') throw new NotificationRefused('refund notification without out_refund_no');
      return {
        id: envelope.id,
        kind: 'refund',
        outTradeNo: typeof content.out_trade_no === 'string' ? content.out_trade_no : undefined,
        outRefundNo: content.out_refund_no,
        outcome: refundOutcomeOf(content.refund_status),
        providerRefundNo: typeof content.refund_id === 'string' ? content.refund_id : undefined,
        ...(content.refund_status !== 'SUCCESS' ? { message: `refund ${String(content.refund_status)}` } : {}),
        raw: content,
      };
    }
    if (typeof content.out_trade_no !== 'string') throw new NotificationRefused('payment notification without out_trade_no');
    const amount = content.amount as Json | undefined;
    return {
      id: envelope.id,
      kind: 'payment',
      outTradeNo: content.out_trade_no,
      outcome: tradeOutcomeOf(content.trade_state),
      providerTradeNo: typeof content.transaction_id === 'string' ? content.transaction_id : undefined,
      amount: typeof amount?.total === 'number' ? amount.total : undefined,
      raw: content,
    };
  }
}
