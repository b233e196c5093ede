import fp from 'fastify-plugin';
import helmet from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** HSTS for a year, subdomains included, sent only on answers to requests that came over TLS. */
export const HSTS_VALUE = 'max-age=31536000; includeSubDomains';

/**
 * The Content-Security-Policy of every answer (API, web app, docs). Scripts only from our own origin
 * (Vite emits no inline script); styles also inline, because antd's CSS-in-JS writes <style>
 * elements at run time; images and media also from data:/blob: (captcha picture, previews of files
 * being uploaded) and any https: address (photo fields may hold an address on another site, as in the
 * old system). Nobody may frame the console (clickjacking). No upgrade-insecure-requests: a console
 * served over plain HTTP on a LAN would then ask for its own files over HTTPS and break.
 */
export const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  scriptSrcAttr: ["'none'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
  mediaSrc: ["'self'", 'blob:', 'https:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  upgradeInsecureRequests: null,
};

const HELMET_OPTIONS = {
  contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
  referrerPolicy: { policy: 'no-referrer' },
  frameguard: { action: 'deny' },
  hsts: false,
  // The console loads nothing from other origins that would need a CORP/COEP opt-in.
  crossOriginEmbedderPolicy: false,
} as const;

/**
 * The headers helmet sets, read once by running its middleware against a recording response: they
 * depend on the options alone, and @fastify/helmet rebuilt the whole middleware (CSP parsing
 * included) on every request, ≈ 7 % of a Search's CPU in Node.
 */
export function securityHeaderValues(): ReadonlyArray<readonly [string, string]> {
  const headers = new Map<string, string>();
  const recorder = {
    setHeader: (name: string, value: string | number) => void headers.set(name.toLowerCase(), String(value)),
    removeHeader: (name: string) => void headers.delete(name.toLowerCase()),
  };
  let failure: unknown;
  helmet(HELMET_OPTIONS)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    failure = error;
  });
  if (failure) throw failure;
  return [...headers];
}

/**
 * Security headers on every answer (helmet's, computed once): the CSP above, nosniff, no Referer (signed
 * upload addresses carry their signature in the query), frames refused. HSTS only when the request
 * came over TLS — directly, or through a proxy that says so in X-Forwarded-Proto when TRUST_PROXY=1
 * (Fastify's `request.protocol`): a browser that saw HSTS over plain HTTP on a LAN address would
 * refuse that console until the header expired.
 */
export const securityHeadersPlugin = fp(
  async (app) => {
    const values = securityHeaderValues();
    // On the raw response, as helmet does: they stay on answers written past Fastify's reply too.
    app.addHook('onRequest', (request, reply, done) => {
      for (const [name, value] of values) reply.raw.setHeader(name, value);
      if (request.protocol === 'https') reply.raw.setHeader('strict-transport-security', HSTS_VALUE);
      done();
    });
  },
  { name: 'security-headers' },
);
