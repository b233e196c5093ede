import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

// Found by the fuzz suite (test/security/fuzz-suite.ts): Fastify refuses these before routing, with
// its own JSON body, outside the error handler and so outside the envelope.
describe('requests refused before routing', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it.each(['/uploads/%ED%A0%80', '/api/School/%ED%A0%80', '/%C0%AF'])('answers the malformed URL %s in the envelope, as HTTP 400', async (url) => {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ code: 400, message: 'request error', key: 'error.request', data: null });
  });
});
