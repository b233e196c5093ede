import { RecognitionRecord } from '@campus/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropExpiredMonthPartitions, logPartitionsJob } from '../../src/resources/engine/log-partitions.js';
import { purgeExpiredRows } from '../../src/resources/engine/log-retention.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { schoolIdsOf } from './fixtures.js';

let t: TestApp;
let schoolId: number;
let deviceId: number;
let serial = 900_000;

beforeAll(async () => {
  t = await createTestApp();
  schoolId = (await schoolIdsOf(t, 'agent1'))[0]!;
  deviceId = (await rows<{ id: number }>(sql`select id from devices where school_id = ${schoolId} limit 1`))[0]!.id;
});
afterAll(() => t.close());

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await t.db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** Inserts one event as the intake does (a retry is dropped by the unique key); answers how many rows it stored. */
async function insertEvent(recognizedAt: Date, eventSerial = ++serial): Promise<number> {
  const inserted = await rows<{ id: number }>(sql`insert into recognition_records
      (recognized_at, school_id, device_id, person_kind, direction, similarity, event_serial, success)
      values (${recognizedAt}, ${schoolId}, ${deviceId}, 5, 1, 40, ${eventSerial}, false)
      on conflict do nothing returning id`);
  return inserted.length;
}

/** The partition each stored row of a device event serial sits in. */
async function partitionOf(eventSerial: number): Promise<string[]> {
  const found = await rows<{ part: string }>(
    sql`select tableoid::regclass::text as part from recognition_records where device_id = ${deviceId} and event_serial = ${eventSerial}`,
  );
  return found.map((row) => row.part);
}

const partitions = async () =>
  (
    await rows<{ name: string }>(sql`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
      where i.inhparent = 'recognition_records'::regclass order by 1`)
  ).map((row) => row.name);

const monthName = (at: Date) => `recognition_records_p${at.toISOString().slice(0, 7).replace('-', '')}`;

describe('recognition_records partitioned by month', () => {
  it('stores a row in the partition of its month, and this month and the next exist from the start', async () => {
    const now = new Date();
    const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 15));
    expect(await partitions()).toEqual(expect.arrayContaining([monthName(now), monthName(nextMonth), 'recognition_records_default']));
    expect(await insertEvent(now)).toBe(1);
    expect(await partitionOf(serial)).toEqual([monthName(now)]);
  });

  it('drops a retried event (same serial, same time) and keeps a serial reused later by a reset device', async () => {
    const at = new Date(Date.now() - 3_600_000);
    expect(await insertEvent(at)).toBe(1);
    expect(await insertEvent(at, serial)).toBe(0);
    const later = new Date(at.getTime() + 60_000);
    expect(await insertEvent(later, serial)).toBe(1);
    expect(await partitionOf(serial)).toHaveLength(2);
  });

  it('keeps a row of a month without a partition in the default one, and moves it when its month is created', async () => {
    const farAhead = new Date(Date.UTC(new Date().getUTCFullYear() + 3, 4, 10, 8));
    expect(await insertEvent(farAhead)).toBe(1);
    const eventSerial = serial;
    expect(await partitionOf(eventSerial)).toEqual(['recognition_records_default']);
    // The daily job on a day of that month creates it (and the next), moving the waiting row in.
    await logPartitionsJob.run(t.db, farAhead);
    expect(await partitionOf(eventSerial)).toEqual([monthName(farAhead)]);
    expect(await partitions()).toContain(monthName(new Date(Date.UTC(farAhead.getUTCFullYear(), 5, 1))));
    // Run again the same day: nothing more to create.
    expect(await logPartitionsJob.run(t.db, farAhead)).toEqual({ [RecognitionRecord.name]: 0 });
  });

  it('drops the months wholly past the retention, keeping the month the boundary falls in', async () => {
    const old = new Date(Date.UTC(2024, 0, 20, 8));
    await t.db.execute(sql`select ensure_month_partitions('recognition_records', '2024-01-01', '2024-03-01')`);
    expect(await insertEvent(old)).toBe(1);
    const oldSerial = serial;
    // 400 days before 10 Mar 2025 is 4 Feb 2024: January 2024 lies wholly before it, February does not.
    const now = new Date(Date.UTC(2025, 2, 10));
    expect(await dropExpiredMonthPartitions(t.db, RecognitionRecord, now)).toEqual(['recognition_records_p202401']);
    expect(await partitionOf(oldSerial)).toEqual([]);
    const left = await partitions();
    expect(left).not.toContain('recognition_records_p202401');
    expect(left).toEqual(expect.arrayContaining(['recognition_records_p202402', 'recognition_records_p202403']));
    // The retention job drops whole months first, then deletes the boundary month's older rows.
    const inFebruary = new Date(Date.UTC(2024, 1, 2));
    expect(await insertEvent(inFebruary)).toBe(1);
    expect(await purgeExpiredRows(t.db, RecognitionRecord, now)).toBe(1);
    expect(await partitionOf(serial)).toEqual([]);
  });

  it('answers Search over the partitions as over one table', async () => {
    const admin = await t.loginAs('admin');
    const response = await t.injectAs(admin, { method: 'POST', url: '/api/RecognitionRecord/Search?view=identifyWarn', payload: { pageSize: 5, schoolId } });
    expect(response.statusCode, response.body).toBe(200);
    expect((response.json().data as { items: { schoolId: number }[] }).items.every((row) => row.schoolId === schoolId)).toBe(true);
  });
});
