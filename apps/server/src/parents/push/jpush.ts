/**
 * JPush (极光推送) v3 push API, called directly: POST https://api.jpush.cn/v3/push with HTTP basic auth
 * (AppKey:Master Secret), audience the device's registration id. The official `jpush-async` client is
 * not used: it is built on the deprecated `request` package (docs/decisions.md "Push through JPush").
 */
import type { PushMessage, PushProvider, PushResult } from './provider.js';

export interface JPushOptions {
  appKey: string;
  masterSecret: string;
  endpoint: string;
  timeoutMs?: number;
  /** Production APNs for iOS (false in development builds). */
  apnsProduction?: boolean;
}

/** JPush's request body for one device. */
export function jpushBody(message: PushMessage, apnsProduction: boolean): Record<string, unknown> {
  const extras = { noticeId: message.noticeId };
  return {
    platform: [message.platform],
    audience: { registration_id: [message.token] },
    notification: message.platform === 'ios' ? { ios: { alert: { title: message.title, body: message.content }, extras } } : { android: { title: message.title, alert: message.content, extras } },
    options: { apns_production: apnsProduction, sendno: message.deliveryId },
  };
}

/** A provider sending through JPush; 4xx answers other than 429 are permanent (a bad token stays bad). */
export function jpushProvider(options: JPushOptions): PushProvider {
  const authorization = `Basic ${Buffer.from(`${options.appKey}:${options.masterSecret}`).toString('base64')}`;
  return {
    name: 'jpush',
    acceptedState: 'sent',
    async send(message): Promise<PushResult> {
      try {
        const response = await fetch(options.endpoint, {
          method: 'POST',
          headers: { authorization, 'content-type': 'application/json' },
          body: JSON.stringify(jpushBody(message, options.apnsProduction ?? true)),
          signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
        });
        if (response.ok) return { ok: true };
        const text = (await response.text()).slice(0, 300);
        return { ok: false, error: `HTTP ${response.status} ${text}`, permanent: response.status >= 400 && response.status < 500 && response.status !== 429 };
      } catch (error) {
        return { ok: false, error: error instanceof Error ? error.message : String(error) };
      }
    },
  };
}
