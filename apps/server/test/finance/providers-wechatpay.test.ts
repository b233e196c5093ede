import { describe, expect, it } from 'vitest';
import { NotificationRefused } from '../../src/finance/providers/types.js';
import { WechatPayProvider, type HttpFetch } from '../../src/finance/providers/wechatpay.js';
import { createTestClock } from '../helpers/test-clock.js';
import { fixture, isMerchantSigned, replayFetch, wechatConfig } from './wechatpay-fixture.js';

const provider = (fetch: HttpFetch = replayFetch(), clock = createTestClock(new Date(fixture.now))) => new WechatPayProvider(wechatConfig, fetch, clock, () => fixture.nonce);

const refund = (outRefundNo: string, refundAmount: number) => ({ outTradeNo: 'PAY202603020001', outRefundNo, refundAmount, totalAmount: 10000, reason: 'parent applied' });

describe('WeChat Pay v3 provider against recorded exchanges', () => {
  it('signs each request WECHATPAY2-SHA256-RSA2048 exactly as recorded', async () => {
    const sent: string[] = [];
    await provider(replayFetch(sent)).refund(refund('RF202603020001', 3000));
    expect(sent).toEqual(['refundSuccess']);
    const recorded = fixture.exchanges.refundSuccess!.request;
    expect(isMerchantSigned(recorded.authorization, 'POST', '/v3/refund/domestic/refunds', recorded.body)).toBe(true);
    expect(isMerchantSigned(recorded.authorization, 'POST', '/v3/refund/domestic/refunds', recorded.body.replace('3000', '3001'))).toBe(false);
  });

  it('maps refund answers: success, processing, a refusal with its message, a server error', async () => {
    const wechat = provider();
    expect(await wechat.refund(refund('RF202603020001', 3000))).toMatchObject({ outcome: 'succeeded', providerRefundNo: expect.stringMatching(/^5000/) });
    expect(await wechat.refund(refund('RF202603020002', 2000))).toMatchObject({ outcome: 'pending' });
    expect(await wechat.refund(refund('RF202603020003', 99999))).toEqual({ outcome: 'failed', message: 'NOT_ENOUGH: 基本账户余额不足，请充值后重新发起' });
    expect(await wechat.refund(refund('RF202603020004', 1000))).toMatchObject({ outcome: 'unknown' });
  });

  it('does not believe an answer signed by another key: the outcome stays unknown', async () => {
    expect(await provider().refund(refund('RF202603020005', 1000))).toMatchObject({ outcome: 'unknown', message: expect.stringContaining('not signed') });
  });

  it('counts a timeout as unknown, and an answer older than five minutes as unsigned', async () => {
    const timeout: HttpFetch = async () => {
      throw new DOMException('The operation was aborted due to timeout', 'TimeoutError');
    };
    expect(await provider(timeout).refund(refund('RF202603020001', 3000))).toMatchObject({ outcome: 'unknown', message: expect.stringContaining('TimeoutError') });
    // The request is signed at the recorded time, the answer checked six minutes later.
    const clock = createTestClock(new Date(fixture.now));
    const late: HttpFetch = async (url, init) => {
      const answer = await replayFetch()(url, init);
      clock.advance(6 * 60_000);
      return answer;
    };
    expect(await provider(late, clock).refund(refund('RF202603020001', 3000))).toMatchObject({ outcome: 'unknown' });
  });

  it('queries refunds by out_refund_no, and payments', async () => {
    const wechat = provider();
    expect(await wechat.queryRefund('RF202603020002')).toMatchObject({ outcome: 'succeeded' });
    expect(await wechat.queryRefund('RF202603020009')).toEqual({ outcome: 'failed', message: 'RESOURCE_NOT_EXISTS: 退款单不存在' });
    expect(await wechat.pay({ outTradeNo: 'PAY202603020001', amount: 10000, description: '校园服务-12个月' })).toEqual({
      outcome: 'pending',
      payUrl: 'weixin://wxpay/bizpayurl?pr=p4lpSuKzz',
    });
    expect(await wechat.query('PAY202603020001')).toMatchObject({ outcome: 'paid', amount: 10000, providerTradeNo: '1217752501201407033233368018' });
  });
});

describe('WeChat Pay v3 notifications', () => {
  const incoming = (name: string, change: (n: { headers: Record<string, string>; body: string }) => void = () => undefined) => {
    const recorded = structuredClone(fixture.notifications[name]!);
    change(recorded);
    return { headers: Object.fromEntries(Object.entries(recorded.headers).map(([key, value]) => [key.toLowerCase(), value])), rawBody: recorded.body };
  };

  it('verifies the signature, then decrypts the resource (AEAD_AES_256_GCM)', async () => {
    expect(await provider().verifyNotification(incoming('refundSuccess'))).toMatchObject({
      id: 'EV-2026030200000001',
      kind: 'refund',
      outRefundNo: 'RF202603020002',
      outcome: 'succeeded',
    });
    expect(await provider().verifyNotification(incoming('refundAbnormal'))).toMatchObject({ kind: 'refund', outRefundNo: 'RF202603020006', outcome: 'failed' });
    expect(await provider().verifyNotification(incoming('paymentSuccess'))).toMatchObject({ kind: 'payment', outTradeNo: 'PAY202603020001', outcome: 'paid', amount: 10000 });
  });

  it('refuses a foreign signature, a changed body, missing headers, an old timestamp, another serial and a wrong APIv3 key', async () => {
    const refusals = [
      provider().verifyNotification(incoming('signedByStranger')),
      provider().verifyNotification(incoming('refundSuccess', (n) => (n.body = n.body.replace('REFUND.SUCCESS', 'REFUND.SUCCESS ')))),
      provider().verifyNotification(incoming('refundSuccess', (n) => delete n.headers['Wechatpay-Signature'])),
      provider().verifyNotification(incoming('refundSuccess', (n) => (n.headers['Wechatpay-Serial'] = 'ANOTHERSERIAL1'))),
      provider(replayFetch(), createTestClock(new Date(Date.parse(fixture.now) + 10 * 60_000))).verifyNotification(incoming('refundSuccess')),
      new WechatPayProvider({ ...wechatConfig, apiV3Key: 'Another0ApiV3Key0000000000000032' }, replayFetch(), createTestClock(new Date(fixture.now))).verifyNotification(incoming('refundSuccess')),
    ];
    for (const refusal of refusals) await expect(refusal).rejects.toBeInstanceOf(NotificationRefused);
  });

  it('refuses a correctly signed notification for another merchant or another app', async () => {
    await expect(provider().verifyNotification(incoming('paymentOtherMerchant'))).rejects.toThrow(new NotificationRefused('notification for merchant 1900000999, not 1900000109'));
    await expect(provider().verifyNotification(incoming('paymentOtherApp'))).rejects.toThrow(new NotificationRefused('notification for app wx0000000000000999, not wxd678efh567hg6787'));
    await expect(provider().verifyNotification(incoming('refundOtherMerchant'))).rejects.toThrow(new NotificationRefused('notification for merchant 1900000999, not 1900000109'));
  });
});
