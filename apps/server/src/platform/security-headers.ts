import helmet from '@fastify/helmet';
import fp from 'fastify-plugin';

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

/**
 * Security headers on every answer through @fastify/helmet: the CSP above, nosniff, no Referer (signed
 * upload addresses carry their signature in the query), frames refused. HSTS only when the request
 * came over TLS — directly, or through a proxy that says so in X-Forwarded-Proto when TRUST_PROXY=1
 * (Fastify's `request.protocol`): a browser that saw HSTS over plain HTTP on a LAN address would
 * refuse that console until the header expired.
 */
export const securityHeadersPlugin = fp(
  async (app) => {
    await app.register(helmet, {
      global: true,
      contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
      referrerPolicy: { policy: 'no-referrer' },
      frameguard: { action: 'deny' },
      hsts: false,
      // The console loads nothing from other origins that would need a CORP/COEP opt-in.
      crossOriginEmbedderPolicy: false,
    });
    app.addHook('onSend', async (request, reply) => {
      if (request.protocol === 'https') reply.header('strict-transport-security', HSTS_VALUE);
    });
  },
  { name: 'security-headers' },
);
