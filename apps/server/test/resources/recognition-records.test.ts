import { RecognitionRecord } from '@campus/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { grantEverything, insertLogSample, schoolIdsOf } from './fixtures.js';

type Row = Record<string, unknown>;

let t: TestApp;
let admin: string;
let agent1: string;
let agent1Schools: number[];
let agent2Schools: number[];

beforeAll(async () => {
  t = await createTestApp();
  await grantEverything(t, 'agent1');
  [admin, agent1] = await Promise.all([t.loginAs('admin'), t.loginAs('agent1')]);
  [agent1Schools, agent2Schools] = await Promise.all([schoolIdsOf(t, 'agent1'), schoolIdsOf(t, 'agent2')]);
});
afterAll(() => t.close());

const search = async (token: string, view: 'identifySuccess' | 'identifyWarn', body: Row = {}) => {
  const response = await t.injectAs(token, { method: 'POST', url: `/api/RecognitionRecord/Search?view=${view}`, payload: { pageSize: 200, ...body } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as { items: Row[]; hasMore: boolean; nextCursor: string | null };
};

describe('RecognitionRecord (identifySuccess, identifyWarn)', () => {
  it('answers the seeded records of the last days, successful ones on one page and failed ones on the other', async () => {
    const success = await search(admin, 'identifySuccess');
    const warn = await search(admin, 'identifyWarn');
    expect(success.items.length).toBeGreaterThan(0);
    expect(warn.items.length).toBeGreaterThan(0);
    expect(success.items.every((row) => row.success === true)).toBe(true);
    expect(warn.items.every((row) => row.success === false)).toBe(true);
    // The view's fixed value wins over a filter asking for the other page's rows.
    expect((await search(admin, 'identifySuccess', { success: false })).items.every((row) => row.success === true)).toBe(true);
    const first = success.items[0]!;
    expect(first.deviceIdLabel).toEqual(expect.any(String));
    expect(first.schoolIdLabel).toEqual(expect.any(String));
  });

  it("keeps an agent to its schools' records", async () => {
    const rows = [...(await search(agent1, 'identifySuccess')).items, ...(await search(agent1, 'identifyWarn')).items];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => agent1Schools.includes(Number(row.schoolId)))).toBe(true);
    const outside = (await search(admin, 'identifySuccess', { schoolId: agent2Schools[0] })).items[0]!;
    expect((await t.injectAs(agent1, { method: 'GET', url: `/api/RecognitionRecord/Get?id=${outside.id}&view=identifySuccess` })).statusCode).toBe(404);
  });

  it('filters by device, person name and direction', async () => {
    const [sample] = (await search(admin, 'identifySuccess')).items;
    const byDevice = await search(admin, 'identifySuccess', { deviceId: sample!.deviceId });
    expect(byDevice.items.every((row) => row.deviceId === sample!.deviceId)).toBe(true);
    const part = String(sample!.personName).slice(1);
    const byName = await search(admin, 'identifySuccess', { personName: part });
    expect(byName.items.map((row) => row.id)).toContain(sample!.id);
    expect(byName.items.every((row) => String(row.personName).includes(part))).toBe(true);
    const out = await search(admin, 'identifySuccess', { direction: 2 });
    expect(out.items.every((row) => row.direction === 2)).toBe(true);
  });

  it('hides a record through its own page only, and shows it again when filtered for', async () => {
    const id = await insertLogSample(t, RecognitionRecord, agent1Schools[0]!);
    // A successful record is not on the failed page: hiding it there is 404 and changes nothing.
    const wrongPage = await t.injectAs(agent1, { method: 'POST', url: '/api/RecognitionRecord/Hide?view=identifyWarn', payload: { ids: [id] } });
    expect(wrongPage.statusCode).toBe(404);
    const hidden = await t.injectAs(agent1, { method: 'POST', url: '/api/RecognitionRecord/Hide?view=identifySuccess', payload: { ids: [id] } });
    expect(hidden.statusCode, hidden.body).toBe(200);
    expect((await search(agent1, 'identifySuccess')).items.map((row) => row.id)).not.toContain(id);
    expect((await search(agent1, 'identifySuccess', { hidden: true })).items.map((row) => row.id)).toEqual([id]);
    const [logged] = ((await t.db.execute(sql`select action, ids from operation_log where family = 'RecognitionRecord' order by id desc limit 1`)) as unknown as {
      rows: { action: string; ids: number[] }[];
    }).rows;
    expect(logged).toEqual({ action: 'set:hidden', ids: [id] });
  });

  it("refuses a retried event: the device's serial number again, with the same recognition time", async () => {
    const id = await insertLogSample(t, RecognitionRecord, agent1Schools[0]!);
    const [row] = ((await t.db.execute(sql`select device_id, event_serial, recognized_at from recognition_records where id = ${id}`)) as unknown as {
      rows: { device_id: number; event_serial: number; recognized_at: string }[];
    }).rows;
    const again = t.db.execute(sql`insert into recognition_records (recognized_at, school_id, device_id, person_kind, direction, similarity, event_serial, success)
      values (${row!.recognized_at}::timestamptz, ${agent1Schools[0]!}, ${row!.device_id}, 5, 1, 40, ${row!.event_serial}, false)`);
    await expect(again).rejects.toThrow();
  });
});
