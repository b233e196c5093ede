import { RecognitionRecord } from '@campus/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { grantEverything, insertLogSample, schoolIdsOf } from './fixtures.js';

type Row = Record<string, unknown>;

let t: TestApp;
let admin: string;
let agent1: string;
let agent2: string;
let agent1School: number;

beforeAll(async () => {
  t = await createTestApp();
  await Promise.all([grantEverything(t, 'agent1'), grantEverything(t, 'agent2')]);
  [admin, agent1, agent2] = await Promise.all([t.loginAs('admin'), t.loginAs('agent1'), t.loginAs('agent2')]);
  agent1School = (await schoolIdsOf(t, 'agent1'))[0]!;
});
afterAll(() => t.close());

const search = async (token: string, body: Row = {}) => {
  const response = await t.injectAs(token, { method: 'POST', url: '/api/FeverAlert/Search', payload: { pageSize: 200, ...body } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as { items: Row[] };
};
const badgeOf = async (token: string) =>
  ((await t.injectAs(token, { method: 'GET', url: '/api/Home/GetBadgeCounts' })).json().data as Record<string, number>).feverUnacknowledged;
const recordAt = (temperature: number) => insertLogSample(t, RecognitionRecord, agent1School, { temperature });
const alertOf = async (recognitionId: number) =>
  (await search(admin, { schoolId: agent1School })).items.find((row) => row.recognitionId === recognitionId);
const saveThreshold = (token: string, threshold: unknown) =>
  t.injectAs(token, { method: 'POST', url: '/api/FeverAlert/SaveThreshold', payload: { threshold } });

describe('FeverAlert (userTemperature)', () => {
  it('raises an alert for a record at or over the threshold (37.3 ℃ by default) and none under it', async () => {
    const fever = await recordAt(37.3);
    const normal = await recordAt(37.2);
    expect(await alertOf(fever)).toMatchObject({ temperature: 37.3, threshold: 37.3, acknowledged: false, schoolId: agent1School });
    expect(await alertOf(normal)).toBeUndefined();
    // Exactly the records over the threshold of the demo data and these tests, nothing else.
    const [direct] = ((await t.db.execute(sql`select count(*)::int as n from recognition_records where temperature >= 37.3`)) as unknown as { rows: { n: number }[] }).rows;
    const [alerts] = ((await t.db.execute(sql`select count(*)::int as n from fever_alerts`)) as unknown as { rows: { n: number }[] }).rows;
    expect(alerts!.n).toBe(direct!.n);
  });

  it('follows the threshold a company user sets, for records arriving from then on; others may not set it', async () => {
    expect((await saveThreshold(agent1, 38)).statusCode).toBe(403);
    const outOfRange = await saveThreshold(admin, 42);
    expect(outOfRange.statusCode).toBe(400);
    expect(outOfRange.json().data.errors[0].path).toBe('threshold');
    const saved = await saveThreshold(admin, 38.04);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data).toEqual({ threshold: 38 });
    expect((await t.injectAs(agent1, { method: 'GET', url: '/api/FeverAlert/GetThreshold' })).json().data).toEqual({ threshold: 38 });
    expect(await alertOf(await recordAt(37.8))).toBeUndefined();
    expect(await alertOf(await recordAt(38.1))).toMatchObject({ threshold: 38 });
    expect((await saveThreshold(admin, 37.3)).statusCode).toBe(200);
  });

  it('acknowledges an alert once, recording who and when, and counts the unacknowledged ones in the badge by scope', async () => {
    const alert = (await alertOf(await recordAt(39.1)))!;
    const before = await badgeOf(agent1);
    expect(before).toBeGreaterThan(0);
    expect(await badgeOf(agent2)).toBe(
      (await search(agent2, { acknowledged: false, recognizedAtFrom: new Date(0).toISOString() })).items.length,
    );
    // Another agent's alert is out of scope: 404, nothing changes.
    expect((await t.injectAs(agent2, { method: 'POST', url: '/api/FeverAlert/Acknowledge', payload: { id: alert.id } })).statusCode).toBe(404);
    const done = await t.injectAs(agent1, { method: 'POST', url: '/api/FeverAlert/Acknowledge', payload: { id: alert.id } });
    expect(done.statusCode, done.body).toBe(200);
    const stored = (await alertOf(Number((await search(admin, { schoolId: agent1School })).items.find((row) => row.id === alert.id)!.recognitionId)))!;
    expect(stored).toMatchObject({ acknowledged: true, acknowledgedByLabel: expect.any(String) });
    expect(typeof stored.acknowledgedAt).toBe('string');
    expect(await badgeOf(agent1)).toBe(before! - 1);
    expect((await t.injectAs(agent1, { method: 'POST', url: '/api/FeverAlert/Acknowledge', payload: { id: alert.id } })).statusCode).toBe(409);
    expect((await search(agent1, { acknowledged: true })).items.map((row) => row.id)).toContain(alert.id);
    expect((await search(agent1, { acknowledged: false })).items.map((row) => row.id)).not.toContain(alert.id);
  });
});
