/**
 * Request ids: each request carries one, in every log line it writes (`reqId`), in the platform log,
 * in a 500's answer, and back to the caller in the `x-request-id` header. A proxy or a client may send
 * its own so one id follows a call across services; anything that is not a short token is replaced,
 * so a caller cannot write arbitrary text into the logs.
 */
import type { RawRequestDefaultExpression } from 'fastify';
import fp from 'fastify-plugin';
import { randomUUID } from 'node:crypto';

export const REQUEST_ID_HEADER = 'x-request-id';

/** 1–64 letters, digits, `_` or `-`: a UUID, a ULID, a proxy's hex id. */
const SANE_REQUEST_ID = /^[\w-]{1,64}$/;

/** The caller's x-request-id when it is sane, else a fresh UUID (Fastify's genReqId). */
export function requestIdOf(request: RawRequestDefaultExpression): string {
  const given = request.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : randomUUID();
}

/** Echoes the request id on every answer, the 404 and error answers included. */
export const requestIdPlugin = fp(
  async (app) => {
    // A callback hook, not an async one: every call runs it, and a promise per call buys nothing here.
    app.addHook('onRequest', (request, reply, done) => {
      reply.header(REQUEST_ID_HEADER, request.id);
      done();
    });
  },
  { name: 'request-id' },
);
