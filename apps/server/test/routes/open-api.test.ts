import { OPEN_API_HEADERS, OPEN_API_PATHS, RecognitionRecord, openStringToSign, type OpenEventsAnswer } from '@campus/contract';
import { eq, sql } from 'drizzle-orm';
import { createHmac, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiNonces } from '../../src/db/schema/index.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { insertLogSample, schoolIdsOf } from '../resources/fixtures.js';

type Row = Record<string, unknown>;

let t: TestApp;
let admin: string;
let school: number;
let foreignSchool: number;
let developer: { id: number; appId: string; secret: string };

const developerCall = (verb: string, payload: unknown, method: 'GET' | 'POST' = 'POST') =>
  t.injectAs(admin, { method, url: `/api/Developer/${verb}${verb.includes('?') ? '&' : '?'}view=developManage`, payload: payload as Row });

/** A signed call as a developer makes it; `tamper` changes one part after signing. */
async function signedCall(query: string, options: { appId?: string; secret?: string; timestamp?: number; nonce?: string; tamper?: 'signature' | 'query' } = {}) {
  const pathWithQuery = `${OPEN_API_PATHS.recognitionEvents}${query}`;
  const timestamp = String(options.timestamp ?? t.clock.now().getTime());
  const nonce = options.nonce ?? randomBytes(16).toString('hex');
  let signature = createHmac('sha256', options.secret ?? developer.secret).update(openStringToSign({ method: 'GET', pathWithQuery, timestamp, nonce })).digest('hex');
  if (options.tamper === 'signature') signature = `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`;
  const url = options.tamper === 'query' ? pathWithQuery.replace('limit=', 'limit=4') : pathWithQuery;
  return t.app.inject({
    method: 'GET',
    url,
    headers: { [OPEN_API_HEADERS.appId]: options.appId ?? developer.appId, [OPEN_API_HEADERS.timestamp]: timestamp, [OPEN_API_HEADERS.nonce]: nonce, [OPEN_API_HEADERS.signature]: signature },
  });
}

const noncesStored = async () => (await t.db.select({ nonce: openApiNonces.nonce }).from(openApiNonces).where(eq(openApiNonces.developerId, developer.id))).length;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.loginAs('admin');
  [school, foreignSchool] = [(await schoolIdsOf(t, 'agent1'))[0]!, (await schoolIdsOf(t, 'agent2'))[0]!];
  const added = await developerCall('Add', { name: '家校通', callbackUrl: 'https://partner.example.com/hook', schoolIds: [school] });
  expect(added.statusCode, added.body).toBe(200);
  const id = added.json().data.id as number;
  const issued = await developerCall('ResetSecret', { id });
  expect(issued.statusCode, issued.body).toBe(200);
  const row = (await developerCall(`Get?id=${id}`, undefined, 'GET')).json().data as Row;
  developer = { id, appId: String(row.appId), secret: issued.json().data.secret as string };
});
afterAll(() => t.close());

describe('Developer (developManage)', () => {
  it('generates the app id, answers the secret only from ResetSecret, and never again', async () => {
    expect(developer.appId).toMatch(/^dev_[0-9a-f]{32}$/);
    expect(developer.secret.length).toBeGreaterThanOrEqual(43);
    const row = (await developerCall(`Get?id=${developer.id}`, undefined, 'GET')).json().data as Row;
    expect(JSON.stringify(row)).not.toContain(developer.secret);
    expect(row.secretIssuedAt).toEqual(expect.any(String));
    expect(row.schoolIds).toEqual([school]);
  });

  it('accepts http(s) callback addresses only', async () => {
    const other = await developerCall('Add', { name: '不安全', callbackUrl: 'ftp://partner.example.com/hook' });
    expect(other.statusCode).toBe(400);
    expect(other.json().data.errors[0].path).toBe('callbackUrl');
  });

  it('is company business: an agent is refused', async () => {
    const agent = await t.loginAs('agent1');
    expect((await t.injectAs(agent, { method: 'POST', url: '/api/Developer/Search?view=developManage', payload: {} })).statusCode).toBe(403);
  });
});

describe('GET /api/Open/RecognitionEvents', () => {
  it("answers its schools' recognition records only, oldest first, paged by (recognizedAt, id)", async () => {
    const first = await signedCall('?limit=3');
    expect(first.statusCode, first.body).toBe(200);
    const page = first.json().data as OpenEventsAnswer;
    expect(page.items).toHaveLength(3);
    expect(page.hasMore).toBe(true);
    expect(page.items.every((item) => item.schoolId === school)).toBe(true);
    const second = (await signedCall(`?since=${encodeURIComponent(page.next!)}&limit=3`)).json().data as OpenEventsAnswer;
    const keys = [...page.items, ...second.items].map((item) => `${item.recognizedAt}_${String(item.id).padStart(10, '0')}`);
    expect(keys).toEqual([...keys].sort());
    expect(new Set(keys).size).toBe(6);
    // Every record of its school, none of another: the count matches the table.
    const all = (await signedCall('?limit=500')).json().data as OpenEventsAnswer;
    const counted = (await t.db.execute(sql`select count(*)::int as n from recognition_records where school_id = ${school}`)) as unknown as { rows: { n: number }[] };
    expect(all.items.every((item) => item.schoolId === school && item.schoolId !== foreignSchool)).toBe(true);
    expect(all.items.length).toBe(Math.min(500, Number(counted.rows[0]!.n)));
  });

  it('answers snapshots as signed addresses that open the image for a limited time', async () => {
    const at = new Date(t.clock.now().getTime() + 365 * 86_400_000);
    await insertLogSample(t, RecognitionRecord, school, { snapshot: '/uploads/2026/11/cccccccccccccccccccccc.jpg', recognizedAt: at, eventSerial: 990_001 });
    const since = `${new Date(at.getTime() - 1000).toISOString()}_0`;
    const page = (await signedCall(`?since=${encodeURIComponent(since)}&limit=5`)).json().data as OpenEventsAnswer;
    const snapshot = page.items.find((item) => item.snapshot !== null)?.snapshot;
    expect(snapshot).toMatch(/^\/uploads\/2026\/11\/cccccccccccccccccccccc\.jpg\?e=\d+&s=[\w-]+$/);
    const query = Object.fromEntries(new URL(snapshot!, 'http://x').searchParams);
    expect((await t.app.mediaUrls()).secondsLeft('2026/11/cccccccccccccccccccccc.jpg', query)).toBeGreaterThan(0);
  });

  it('refuses a bad signature, a changed query, another secret, an unknown app and a stale timestamp, storing nothing', async () => {
    const before = await noncesStored();
    const refusals = [
      await signedCall('?limit=2', { tamper: 'signature' }),
      await signedCall('?limit=2', { tamper: 'query' }),
      await signedCall('?limit=2', { secret: randomBytes(32).toString('base64url') }),
      await signedCall('?limit=2', { appId: 'dev_unknown' }),
      await signedCall('?limit=2', { timestamp: t.clock.now().getTime() - 6 * 60_000 }),
      await t.app.inject({ method: 'GET', url: `${OPEN_API_PATHS.recognitionEvents}?limit=2` }),
    ];
    for (const response of refusals) {
      expect(response.statusCode, response.body).toBe(401);
      expect(response.json().code).toBe('10010');
    }
    expect(await noncesStored()).toBe(before);
  });

  it('accepts a nonce once', async () => {
    const nonce = randomBytes(16).toString('hex');
    expect((await signedCall('?limit=1', { nonce })).statusCode).toBe(200);
    expect((await signedCall('?limit=1', { nonce })).statusCode).toBe(401);
  });

  it('refuses a disabled developer, and follows a change of its schools at once', async () => {
    const [stored] = (await developerCall('Search', { appId: developer.appId })).json().data.items as Row[];
    expect((await developerCall('Update', { id: developer.id, version: stored!.version, schoolIds: [foreignSchool] })).statusCode).toBe(200);
    const moved = (await signedCall('?limit=5')).json().data as OpenEventsAnswer;
    expect(moved.items.length).toBeGreaterThan(0);
    expect(moved.items.every((item) => item.schoolId === foreignSchool)).toBe(true);
    expect((await developerCall('UpdateEnabled', { ids: [developer.id], value: false })).statusCode).toBe(200);
    expect((await signedCall('?limit=5')).statusCode).toBe(401);
  });
});
