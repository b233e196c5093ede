/**
 * One callback POST: signed like an Open API call (api/developer-callbacks.ts), sent to an address
 * checked against the SSRF policy (callback-address.ts), within a deadline, never following a
 * redirect (a 3xx is a failure like any non-2xx: the receiver's URL is what the developer registered).
 * Answers what happened instead of throwing: the worker records every attempt.
 */
import { CALLBACK_HEADERS } from '@campus/contract';
import { openSignature } from '@campus/contract/terminal-signing';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import { CallbackAddressRefused, guardedLookup, isAllowedHost, isInternalAddress, type CallbackPolicy } from './callback-address.js';

/** The four Open API headers plus the delivery's idempotency key, for `body` sent to `url` at `now`. */
export function signedCallbackHeaders(
  developer: { appId: string; secret: string },
  url: URL,
  body: string,
  deliveryId: string,
  now: Date,
  nonce: string = randomBytes(16).toString('hex'),
): Record<string, string> {
  const timestamp = String(now.getTime());
  const signature = openSignature(developer.secret, { method: 'POST', pathWithQuery: `${url.pathname}${url.search}`, timestamp, nonce, body });
  return {
    [CALLBACK_HEADERS.appId]: developer.appId,
    [CALLBACK_HEADERS.timestamp]: timestamp,
    [CALLBACK_HEADERS.nonce]: nonce,
    [CALLBACK_HEADERS.signature]: signature,
    [CALLBACK_HEADERS.deliveryId]: deliveryId,
  };
}

export interface CallbackResult {
  /** The receiver's HTTP status, when it answered at all. */
  status?: number;
  /** Why the attempt failed short of a status (timeout, refused address, network). */
  error?: string;
  durationMs: number;
}

export const isDelivered = (result: CallbackResult) => result.status !== undefined && result.status >= 200 && result.status < 300;

/** POSTs the JSON body; resolves with the status as soon as the receiver's headers arrive (its body is not read). */
export function postCallback(url: URL, body: string, headers: Record<string, string>, options: { timeoutMs: number; policy: CallbackPolicy }): Promise<CallbackResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  // An IP literal is connected to without a lookup, so it is checked here.
  if (isIP(host) !== 0 && !isAllowedHost(options.policy, host) && isInternalAddress(host)) {
    return Promise.resolve({ error: new CallbackAddressRefused(host).message, durationMs: elapsed() });
  }
  return new Promise((resolve) => {
    let isSettled = false;
    const settle = (result: Omit<CallbackResult, 'durationMs'>) => {
      if (isSettled) return;
      isSettled = true;
      clearTimeout(deadline);
      resolve({ ...result, durationMs: elapsed() });
    };
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(url, {
      method: 'POST',
      // No pooled sockets: receivers are many and far apart in time.
      agent: false,
      lookup: guardedLookup(options.policy),
      headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'campus-ops-callbacks' },
    });
    // The deadline covers the whole call (lookup, connect, TLS, the receiver's work), not one idle gap.
    const deadline = setTimeout(() => {
      settle({ error: `no answer within ${options.timeoutMs} ms` });
      request.destroy();
    }, options.timeoutMs);
    request.on('response', (response) => {
      settle({ status: response.statusCode });
      response.destroy();
    });
    request.on('error', (error: NodeJS.ErrnoException) => settle({ error: error.code ? `${error.code}: ${error.message}` : error.message }));
    request.end(body);
  });
}
