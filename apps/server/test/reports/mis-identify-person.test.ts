import { RecognitionRecord, formatBusinessDate } from '@campus/contract';
import { inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recognitionPersonMisses } from '../../src/db/schema/index.js';
import { MIS_IDENTIFY_RETENTION_DAYS, misIdentifyRetentionJob, purgeExpiredMisses } from '../../src/reports/mis-identify-person.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { grantEverything, insertLogSample, schoolIdsOf } from '../resources/fixtures.js';

type Row = Record<string, unknown>;

let t: TestApp;
let admin: string;
let agent1: string;
let agent1Schools: number[];

beforeAll(async () => {
  t = await createTestApp();
  await grantEverything(t, 'agent1');
  [admin, agent1] = await Promise.all([t.loginAs('admin'), t.loginAs('agent1')]);
  agent1Schools = await schoolIdsOf(t, 'agent1');
});
afterAll(() => t.close());

// The records are stamped by the database's clock, the app runs on the test clock: name the days.
const dayFrom = formatBusinessDate(new Date(Date.now() - 20 * 86_400_000));
const dayTo = formatBusinessDate(new Date(Date.now() + 86_400_000));
const search = async (token: string, body: Row = {}) => {
  const response = await t.injectAs(token, { method: 'POST', url: '/api/MisIdentifyPerson/Search', payload: { pageIndex: 1, pageSize: 200, dayFrom, dayTo, ...body } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as { items: Row[]; total: number; totals: Record<string, number> };
};
const count = async (query: ReturnType<typeof sql>) => Number(((await t.db.execute(query)) as unknown as { rows: { n: number }[] }).rows[0]!.n);
const misses = sql`person_id is not null and person_kind <> 5 and (not success or similarity < 80)
  and (recognized_at at time zone 'Asia/Shanghai')::date between ${dayFrom}::date and ${dayTo}::date`;

describe('POST /api/MisIdentifyPerson/Search', () => {
  it('answers totals equal to a direct count of the failed and low-similarity records of known people', async () => {
    const school = agent1Schools[0]!;
    const person = { personKind: 1, personId: 990_001, personName: '测试误识' };
    await insertLogSample(t, RecognitionRecord, school, { ...person, success: false, similarity: 55, snapshot: '/uploads/2026/11/aaaaaaaaaaaaaaaaaaaaaa.jpg', recognizedAt: new Date(Date.now() - 120_000) });
    await insertLogSample(t, RecognitionRecord, school, { ...person, success: true, similarity: 72, snapshot: '/uploads/2026/11/bbbbbbbbbbbbbbbbbbbbbb.jpg' });
    await insertLogSample(t, RecognitionRecord, school, { ...person, success: true, similarity: 96 });
    const answer = await search(admin);
    expect(answer.totals.failed).toBe(await count(sql`select count(*)::int as n from recognition_records where ${misses} and not success`));
    expect(answer.totals.lowSimilarity).toBe(await count(sql`select count(*)::int as n from recognition_records where ${misses} and success`));
    expect(answer.totals.total).toBe(answer.totals.failed! + answer.totals.lowSimilarity!);
    const row = answer.items.find((item) => item.personId === String(person.personId))!;
    expect(row).toMatchObject({ personName: '测试误识', personKind: 1, schoolId: school, failed: 1, lowSimilarity: 1, total: 2, schoolIdLabel: expect.any(String) });
    // The last snapshot is the newer record's, as a signed address; the last time is that record's.
    expect(String(row.lastSnapshot)).toContain('bbbbbbbbbbbbbbbbbbbbbb.jpg?e=');
    expect(String(row.lastSnapshot)).not.toBe('/uploads/2026/11/bbbbbbbbbbbbbbbbbbbbbb.jpg');
    expect(Date.now() - Date.parse(String(row.lastAt))).toBeLessThan(120_000);
  });

  it("keeps an agent to its schools and filters by school, person type and days", async () => {
    const scoped = await search(agent1);
    expect(scoped.items.every((row) => agent1Schools.includes(Number(row.schoolId)))).toBe(true);
    expect(scoped.totals.total).toBe(
      await count(sql`select count(*)::int as n from recognition_records where ${misses} and school_id in (select id from schools where agent_id = (select id from users where login_name = 'agent1'))`),
    );
    const oneSchool = await search(agent1, { schoolId: agent1Schools[0] });
    expect(oneSchool.items.every((row) => row.schoolId === agent1Schools[0])).toBe(true);
    expect((await search(agent1, { personKind: 4 })).items.every((row) => row.personKind === 4)).toBe(true);
    const future = formatBusinessDate(new Date(Date.now() + 3 * 86_400_000));
    expect((await search(agent1, { dayFrom: future, dayTo: future })).total).toBe(0);
  });

  it('exports the groups with the last time and a totals row', async () => {
    const response = await t.injectAs(admin, { method: 'GET', url: `/api/MisIdentifyPerson/Export?lang=en&dayFrom=${dayFrom}&dayTo=${dayTo}` });
    expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
  });
});

describe('misIdentifyPerson rollup retention', () => {
  it('drops the days past the recognition records’ retention and keeps the others', async () => {
    const now = new Date('2026-11-20T04:00:00Z');
    const dayAgo = (days: number) => formatBusinessDate(new Date(now.getTime() - days * 86_400_000));
    const school = agent1Schools[0]!;
    const row = (day: string, personId: number) => ({ day, schoolId: school, personKind: 1, personId, personName: '留存', failed: 1, lowSimilarity: 0, lastAt: now });
    await t.db.insert(recognitionPersonMisses).values([row(dayAgo(MIS_IDENTIFY_RETENTION_DAYS + 30), 991_001), row(dayAgo(MIS_IDENTIFY_RETENTION_DAYS + 1), 991_002), row(dayAgo(MIS_IDENTIFY_RETENTION_DAYS - 1), 991_003)]);
    expect(await purgeExpiredMisses(t.db, now, 1)).toBe(2);
    const left = await t.db.select({ personId: recognitionPersonMisses.personId }).from(recognitionPersonMisses).where(inArray(recognitionPersonMisses.personId, [991_001, 991_002, 991_003]));
    expect(left.map((one) => one.personId)).toEqual([991_003]);
    expect(await misIdentifyRetentionJob.run(t.db, now)).toBe(0);
  });
});
