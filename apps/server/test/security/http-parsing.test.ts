/**
 * How the API reads a request before any handler runs (ASVS 5.1.1, 13.1.5, issue 8): a parameter
 * sent twice is refused as a field error instead of one copy silently winning, and a body in a
 * content type the route does not take is refused with 415 in the envelope, changing nothing.
 */
import { School, Student } from '@campus/contract';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schools } from '../../src/db/schema/resources.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { viewQuery } from '../resources/fixtures.js';

let t: TestApp;
let admin: string;
let schoolId: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.loginAs('admin');
  const [school] = await t.db.select({ id: schools.id }).from(schools).limit(1);
  schoolId = school!.id;
});
afterAll(() => t.close());

function expectFieldError(response: LightMyRequestResponse, path: string): void {
  expect(response.statusCode, response.body).toBe(400);
  const body = response.json();
  expect(body.code).toBe(400);
  expect(body.data.errors.map((e: { path: string }) => e.path)).toContain(path);
}

describe('a parameter sent twice (HTTP parameter pollution, ASVS 5.1.1)', () => {
  it('refuses a repeated id, naming it, whichever copy would be the right one', async () => {
    expectFieldError(await t.injectAs(admin, { method: 'GET', url: `/api/School/Get?id=${schoolId}&id=${schoolId}&${viewQuery(School)}` }), 'id');
    expectFieldError(await t.injectAs(admin, { method: 'GET', url: `/api/School/Get?id=${schoolId}&id=999999&${viewQuery(School)}` }), 'id');
  });

  it('refuses a repeated filter of a search or an export in the query string', async () => {
    expectFieldError(await t.injectAs(admin, { method: 'GET', url: `/api/Student/Options?schoolId=${schoolId}&schoolId=${schoolId + 1}&${viewQuery(Student)}` }), 'schoolId');
    expectFieldError(await t.injectAs(admin, { method: 'GET', url: `/api/School/Export?schoolName=a&schoolName=b&${viewQuery(School)}` }), 'schoolName');
  });

  it('reads a key repeated in a JSON body as JSON does, the last copy, and validates that one', async () => {
    const response = await t.injectAs(admin, {
      method: 'POST',
      url: `/api/Student/Search?${viewQuery(Student)}`,
      headers: { 'content-type': 'application/json' },
      payload: `{"schoolId": ${schoolId}, "schoolId": "x"}`,
    });
    expectFieldError(response, 'schoolId');
  });
});

describe('a body in a content type the route does not take (ASVS 13.1.5)', () => {
  const bodies = [
    ['text/plain', 'schoolName=probe'],
    ['application/x-www-form-urlencoded', 'schoolName=probe'],
    ['application/xml', '<school><schoolName>probe</schoolName></school>'],
    ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="schoolName"\r\n\r\nprobe\r\n--x--\r\n'],
  ] as const;

  it.each(bodies)('answers 415 in the envelope to %s and adds nothing', async (contentType, payload) => {
    const before = await t.db.select({ id: schools.id }).from(schools).where(eq(schools.schoolName, 'probe'));
    const response = await t.injectAs(admin, { method: 'POST', url: `/api/School/Add?${viewQuery(School)}`, headers: { 'content-type': contentType }, payload });
    expect(response.statusCode, response.body).toBe(415);
    expect(response.json()).toMatchObject({ code: 415, data: null });
    expect(response.body).not.toMatch(/at .*\.(ts|js):\d+/);
    expect(await t.db.select({ id: schools.id }).from(schools).where(eq(schools.schoolName, 'probe'))).toEqual(before);
  });

  it('answers 415 to a login posted as a form, so a cross-site form cannot sign in', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/Account/Login_web',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'userName=admin&password=x&vcId=x&vcCode=1234',
    });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toMatchObject({ code: 415 });
  });
});
