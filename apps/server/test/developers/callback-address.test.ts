import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { CallbackAddressRefused, callbackPolicyOf, guardedLookup, isCallbackUrlAllowed, isInternalAddress } from '../../src/developers/callback-address.js';
import { postCallback } from '../../src/developers/callback-http.js';

const production = callbackPolicyOf({ NODE_ENV: 'production' });

describe('isInternalAddress', () => {
  it.each(['127.0.0.1', '10.1.2.3', '172.31.255.1', '192.168.0.10', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '::1', '::', 'fd12::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '64:ff9b::a00:1', 'not-an-address'])(
    'treats %s as internal',
    (address) => expect(isInternalAddress(address)).toBe(true),
  );
  it.each(['8.8.8.8', '203.0.113.9', '172.32.0.1', '2001:4860:4860::8888', '::ffff:8.8.8.8'])('treats %s as public', (address) => expect(isInternalAddress(address)).toBe(false));
});

describe('isCallbackUrlAllowed', () => {
  it('takes public http(s) addresses and refuses other schemes, internal addresses and local names', () => {
    expect(isCallbackUrlAllowed(production, 'https://partner.example.com/hook?x=1')).toBe(true);
    expect(isCallbackUrlAllowed(production, 'http://203.0.113.9:8080/hook')).toBe(true);
    for (const url of ['ftp://partner.example.com/', 'file:///etc/passwd', 'gopher://x', 'not a url', 'http://127.0.0.1:9000/', 'http://[::1]/', 'http://[::ffff:7f00:1]/', 'http://localhost/', 'http://api.localhost/', 'http://db.internal/', 'http://printer.local/']) {
      expect(isCallbackUrlAllowed(production, url), url).toBe(false);
    }
  });

  it('lets the allow-list through: none in production unless set, this machine elsewhere', () => {
    expect(isCallbackUrlAllowed(callbackPolicyOf({ NODE_ENV: 'test' }), 'http://127.0.0.1:9000/')).toBe(true);
    expect(isCallbackUrlAllowed(callbackPolicyOf({ NODE_ENV: 'development' }), 'http://localhost:9000/')).toBe(true);
    expect(isCallbackUrlAllowed(callbackPolicyOf({ NODE_ENV: 'development', CALLBACK_ALLOWED_HOSTS: '' }), 'http://localhost:9000/')).toBe(false);
    const demo = callbackPolicyOf({ NODE_ENV: 'production', CALLBACK_ALLOWED_HOSTS: 'Receiver.Lan, [::1]' });
    expect(isCallbackUrlAllowed(demo, 'http://receiver.lan/hook')).toBe(true);
    expect(isCallbackUrlAllowed(demo, 'http://[::1]:8080/hook')).toBe(true);
    expect(isCallbackUrlAllowed(demo, 'http://10.0.0.1/hook')).toBe(false);
  });
});

describe('guardedLookup', () => {
  it('refuses a name resolving to an internal address, unless the host is allowed', async () => {
    const resolve = (policy = production) =>
      new Promise<unknown>((done) => guardedLookup(policy)('localhost', {}, (error, address) => done(error ?? address)));
    expect(await resolve()).toBeInstanceOf(CallbackAddressRefused);
    expect(await resolve(callbackPolicyOf({ NODE_ENV: 'test' }))).toMatch(/^(127\.0\.0\.1|::1)$/);
  });
});

describe('postCallback', () => {
  it('connects through the guarded lookup: a name resolving inward reaches nothing unless allowed', async () => {
    let calls = 0;
    const server = http.createServer((_request, response) => {
      calls += 1;
      response.writeHead(204).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = new URL(`http://localhost:${(server.address() as AddressInfo).port}/hook`);
      const refused = await postCallback(url, '{}', {}, { timeoutMs: 2000, policy: production });
      expect(refused.error).toMatch(/resolves to the internal address/);
      expect(calls).toBe(0);
      // Allowed, the same name connects (to whichever loopback address answers: the server is on 127.0.0.1).
      const allowed = await postCallback(url, '{}', {}, { timeoutMs: 2000, policy: callbackPolicyOf({ NODE_ENV: 'test' }) });
      expect(allowed.status).toBe(204);
      expect(calls).toBe(1);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('sends nothing to an internal IP literal (no lookup happens for one)', async () => {
    const result = await postCallback(new URL('http://127.0.0.1:9/hook'), '{}', {}, { timeoutMs: 1000, policy: production });
    expect(result.status).toBeUndefined();
    expect(result.error).toMatch(/internal address/);
  });
});
