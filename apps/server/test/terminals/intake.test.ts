import { INTAKE_HEADERS, INTAKE_MAX_CLOCK_SKEW_MS, INTAKE_PATHS } from '@campus/contract';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recognitionRecords, students, terminalNonces, terminals } from '../../src/db/schema/index.js';
import { columnOf } from '../../src/resources/engine/query.js';
import { NONCE_RETENTION_MS } from '../../src/terminals/intake-auth.js';
import { NONCE_PURGE_EVERY_MS, intakeNoncePurgeJob, purgeIntakeNonces } from '../../src/terminals/nonce-purge.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { schoolIdsOf } from '../resources/fixtures.js';
import { PNG, event, heartbeat, multipartEvents, registerTerminal, sendEvents, signedCall, type TestTerminal } from './intake-support.js';

type Row = Record<string, unknown>;

let t: TestApp;
let admin: string;
let agent1Schools: number[];
let agent2Schools: number[];

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.loginAs('admin');
  [agent1Schools, agent2Schools] = await Promise.all([schoolIdsOf(t, 'agent1'), schoolIdsOf(t, 'agent2')]);
});
afterAll(() => t.close());

async function storedEvents(terminal: TestTerminal): Promise<Row[]> {
  return t.db.select().from(recognitionRecords).where(eq(columnOf(recognitionRecords, 'deviceId'), terminal.deviceId));
}

async function nonceCount(terminal: TestTerminal): Promise<number> {
  const [row] = await t.db.select({ n: count() }).from(terminalNonces).where(eq(terminalNonces.terminalId, terminal.id));
  return Number(row!.n);
}

async function terminalRow(terminal: TestTerminal): Promise<Row> {
  return (await t.injectAs(admin, { method: 'GET', url: `/api/Terminal/Get?id=${terminal.id}` })).json().data as Row;
}

describe('the signed intake refuses, storing nothing', () => {
  let terminal: TestTerminal;
  beforeAll(async () => {
    terminal = await registerTerminal(t, admin, agent1Schools[0]!);
  });

  const refusals: [string, () => Promise<{ statusCode: number; json: () => Row }>][] = [
    ['an unknown device', () => sendEvents(t, { ...terminal, serialNumber: 'NOPE-0000' }, [event(t, 1)])],
    ['a wrong signature', () => sendEvents(t, terminal, [event(t, 1)], { secret: 'not-the-secret' })],
    ['a signature over another body', () => sendEvents(t, terminal, [event(t, 1)], { headers: { [INTAKE_HEADERS.signature]: 'ab'.repeat(32) } })],
    ['a timestamp too far in the past', () => sendEvents(t, terminal, [event(t, 1)], { at: new Date(t.clock.now().getTime() - INTAKE_MAX_CLOCK_SKEW_MS - 1000) })],
    ['a timestamp too far ahead', () => sendEvents(t, terminal, [event(t, 1)], { at: new Date(t.clock.now().getTime() + INTAKE_MAX_CLOCK_SKEW_MS + 1000) })],
    ['a missing header', () => sendEvents(t, terminal, [event(t, 1)], { headers: { [INTAKE_HEADERS.nonce]: '' } })],
  ];
  it.each(refusals)('refuses %s with 401', async (_name, send) => {
    const response = await send();
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 401 });
    expect(await storedEvents(terminal)).toEqual([]);
    expect(await nonceCount(terminal)).toBe(0);
    expect((await terminalRow(terminal)).lastSeenAt).toBeNull();
  });

  it('refuses a disabled terminal, and one without a secret', async () => {
    const disabled = await registerTerminal(t, admin, agent1Schools[0]!);
    await t.injectAs(admin, { method: 'POST', url: '/api/Terminal/UpdateEnabled', payload: { ids: [disabled.id], value: false } });
    const withoutSecret = await registerTerminal(t, admin, agent1Schools[0]!, { issueSecret: false });
    for (const refused of [disabled, withoutSecret]) {
      expect((await sendEvents(t, refused, [event(t, 1)])).statusCode).toBe(401);
      expect((await heartbeat(t, refused)).statusCode).toBe(401);
      expect(await storedEvents(refused)).toEqual([]);
      expect((await terminalRow(refused)).lastSeenAt).toBeNull();
    }
  });

  it('refuses the old secret once a new one is issued', async () => {
    const rotated = await registerTerminal(t, admin, agent1Schools[0]!);
    const fresh = (await t.injectAs(admin, { method: 'POST', url: '/api/Terminal/IssueSecret', payload: { id: rotated.id } })).json().data.secret as string;
    expect((await sendEvents(t, rotated, [event(t, 1)])).statusCode).toBe(401);
    expect((await sendEvents(t, { ...rotated, secret: fresh }, [event(t, 1)])).json().data).toEqual({ accepted: 1, duplicates: 0 });
  });

  it('refuses a nonce seen before, and stores nothing of the replay', async () => {
    const replayed = await registerTerminal(t, admin, agent1Schools[0]!);
    const nonce = 'replayed-nonce-0001';
    expect((await sendEvents(t, replayed, [event(t, 1)], { nonce })).json().data).toEqual({ accepted: 1, duplicates: 0 });
    const again = await sendEvents(t, replayed, [event(t, 2)], { nonce });
    expect(again.statusCode).toBe(401);
    expect(again.json().key).toBe('intake.nonceReused');
    expect((await storedEvents(replayed)).map((row) => row.eventSerial)).toEqual([1]);
  });

  it('answers a 400 naming the field for a bad body, storing nothing and leaving the nonce free for the retry', async () => {
    const device = await registerTerminal(t, admin, agent1Schools[0]!);
    const nonce = 'bad-body-nonce-0001';
    const bad = await sendEvents(t, device, [{ ...event(t, 1), direction: 3 as 1 }], { nonce });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data.errors).toEqual([expect.objectContaining({ path: 'events.0.direction' })]);
    expect(await storedEvents(device)).toEqual([]);
    expect((await sendEvents(t, device, [event(t, 1)], { nonce })).json().data).toEqual({ accepted: 1, duplicates: 0 });
  });
});

describe('recognition events', () => {
  it('stores a batch once: a retry answers duplicates and stores nothing again', async () => {
    const terminal = await registerTerminal(t, admin, agent1Schools[0]!);
    const batch = [event(t, 1), event(t, 2), event(t, 3)];
    expect((await sendEvents(t, terminal, batch)).json().data).toEqual({ accepted: 3, duplicates: 0 });
    expect((await sendEvents(t, terminal, batch)).json().data).toEqual({ accepted: 0, duplicates: 3 });
    expect((await sendEvents(t, terminal, [...batch, event(t, 4)])).json().data).toEqual({ accepted: 1, duplicates: 3 });
    expect((await storedEvents(terminal)).map((row) => row.eventSerial).sort()).toEqual([1, 2, 3, 4]);
  });

  it("names a person of the device's school, and stores a person of another school as an unknown face", async () => {
    const terminal = await registerTerminal(t, admin, agent1Schools[0]!);
    const [own] = await t.db.select({ id: columnOf(students, 'id'), name: columnOf(students, 'name') }).from(students).where(eq(columnOf(students, 'schoolId'), agent1Schools[0]!)).limit(1);
    const [foreign] = await t.db.select({ id: columnOf(students, 'id') }).from(students).where(eq(columnOf(students, 'schoolId'), agent2Schools[0]!)).limit(1);
    const answer = await sendEvents(t, terminal, [
      event(t, 1, { personKind: 1, personId: Number(own!.id), similarity: 97.5, temperature: 36.6 }),
      event(t, 2, { personKind: 1, personId: Number(foreign!.id), similarity: 91 }),
    ]);
    expect(answer.json().data).toEqual({ accepted: 2, duplicates: 0 });
    const rows = (await storedEvents(terminal)).sort((a, b) => Number(a.eventSerial) - Number(b.eventSerial));
    expect(rows[0]).toMatchObject({ personKind: 1, personId: Number(own!.id), personName: own!.name, success: true, schoolId: agent1Schools[0], temperature: 36.6 });
    expect(rows[1]).toMatchObject({ personKind: 5, personId: null, personName: null, success: false, schoolId: agent1Schools[0] });
  });

  it('records a gap in the serials, asks for it at the heartbeat, and closes it as the events arrive', async () => {
    const terminal = await registerTerminal(t, admin, agent1Schools[0]!);
    await sendEvents(t, terminal, [event(t, 1), event(t, 2), event(t, 6), event(t, 9)]);
    const resend = async () => (await heartbeat(t, terminal)).json().data.resendEvents;
    expect(await resend()).toEqual([{ from: 3, to: 5 }, { from: 7, to: 8 }]);
    await sendEvents(t, terminal, [event(t, 4), event(t, 8)]);
    expect(await resend()).toEqual([{ from: 3, to: 3 }, { from: 5, to: 5 }, { from: 7, to: 7 }]);
    await sendEvents(t, terminal, [event(t, 3), event(t, 5), event(t, 7)]);
    expect(await resend()).toEqual([]);
    // A retry of old events opens nothing.
    await sendEvents(t, terminal, [event(t, 1)]);
    expect(await resend()).toEqual([]);
  });

  it('stores a multipart snapshot, checked by content, and serves it by a signed address', async () => {
    const terminal = await registerTerminal(t, admin, agent1Schools[0]!);
    const { body, contentType } = multipartEvents([event(t, 1, { snapshotPart: 'snap1' }), event(t, 2)], [{ name: 'snap1', data: PNG }]);
    const answer = await signedCall(t, terminal, INTAKE_PATHS.events, body, { contentType });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().data).toEqual({ accepted: 2, duplicates: 0 });

    const search = await t.injectAs(admin, { method: 'POST', url: '/api/RecognitionRecord/Search?view=identifyWarn', payload: { deviceId: terminal.deviceId, pageSize: 10 } });
    const rows = search.json().data.items as Row[];
    const withSnapshot = rows.find((row) => row.eventSerial === 1 || row.snapshot)!;
    expect(String(withSnapshot.snapshot)).toMatch(/^\/uploads\/.+\.png\?e=\d+&s=/);
    const served = await t.app.inject({ method: 'GET', url: String(withSnapshot.snapshot) });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(PNG)).toBe(true);
    // Unsigned, the same file does not open.
    expect((await t.app.inject({ method: 'GET', url: String(withSnapshot.snapshot).split('?')[0]! })).statusCode).not.toBe(200);
  });

  it('refuses a snapshot that is not an image, or missing, and stores nothing of the batch', async () => {
    const terminal = await registerTerminal(t, admin, agent1Schools[0]!);
    const notImage = multipartEvents([event(t, 1, { snapshotPart: 'snap1' })], [{ name: 'snap1', data: Buffer.from('#!/bin/sh\necho not a picture\n') }]);
    const refused = await signedCall(t, terminal, INTAKE_PATHS.events, notImage.body, { contentType: notImage.contentType });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().data.errors).toEqual([expect.objectContaining({ path: 'events.0.snapshotPart', key: 'intake.snapshotNotImage' })]);
    const missing = multipartEvents([event(t, 1, { snapshotPart: 'snap2' })], []);
    expect((await signedCall(t, terminal, INTAKE_PATHS.events, missing.body, { contentType: missing.contentType })).json().data.errors).toEqual([
      expect.objectContaining({ path: 'events.0.snapshotPart', key: 'intake.snapshotMissing' }),
    ]);
    expect(await storedEvents(terminal)).toEqual([]);
  });
});

describe('heartbeat and online state', () => {
  it('stores what the heartbeat reports and answers the interval, the time, commands and gaps', async () => {
    const terminal = await registerTerminal(t, admin, agent1Schools[0]!);
    const answer = await heartbeat(t, terminal, { firmwareVersion: '3.0.1', ip: '10.9.8.7', freeStorageMb: 512, faceCount: 321, temperatureSensor: 'fault' });
    expect(answer.statusCode, answer.body).toBe(200);
    // The demo school has its NVR, which the device is asked to check.
    expect(answer.json().data).toEqual({ intervalSeconds: 30, serverTime: t.clock.now().toISOString(), commands: [], resendEvents: [], nvrs: [expect.objectContaining({ serialNumber: expect.any(String), port: 8000 })] });
    expect(await terminalRow(terminal)).toMatchObject({ firmwareVersion: '3.0.1', ip: '10.9.8.7', freeStorageMb: 512, faceCount: 321, temperatureSensor: 'fault', online: true, lastSeenAt: t.clock.now().toISOString() });
  });

  it('goes offline after three missed heartbeats and online again at the next signed call', async () => {
    const terminal = await registerTerminal(t, admin, agent1Schools[0]!);
    expect((await terminalRow(terminal)).online).toBe(false);
    await heartbeat(t, terminal);
    expect((await terminalRow(terminal)).online).toBe(true);
    t.clock.advance(3 * 30_000 - 1000);
    expect((await terminalRow(terminal)).online).toBe(true);
    t.clock.advance(2000);
    expect((await terminalRow(terminal)).online).toBe(false);
    const offline = await t.injectAs(admin, { method: 'POST', url: '/api/Terminal/Search', payload: { online: false, pageSize: 200 } });
    expect((offline.json().data.items as Row[]).map((row) => row.id)).toContain(terminal.id);
    // Any signed call is activity, not only a heartbeat.
    await sendEvents(t, terminal, [event(t, 1)]);
    expect((await terminalRow(terminal)).online).toBe(true);
  });

  it('refuses a heartbeat whose body does not match its schema, changing nothing', async () => {
    const terminal = await registerTerminal(t, admin, agent1Schools[0]!);
    const response = await heartbeat(t, terminal, { temperatureSensor: 'melted' });
    expect(response.statusCode).toBe(400);
    expect(response.json().data.errors).toEqual([expect.objectContaining({ path: 'temperatureSensor' })]);
    const [row] = await t.db.select({ lastSeenAt: columnOf(terminals, 'lastSeenAt') }).from(terminals).where(and(eq(columnOf(terminals, 'id'), terminal.id)));
    expect(row!.lastSeenAt).toBeNull();
  });
});

describe('nonces', () => {
  it('purges nonces once they are older than any timestamp the clock check lets through, keeping the recent ones', async () => {
    const terminal = await registerTerminal(t, admin, agent1Schools[0]!);
    await heartbeat(t, terminal);
    t.clock.advance(NONCE_RETENTION_MS + 1000);
    await heartbeat(t, terminal);
    expect(await nonceCount(terminal)).toBe(2);
    await intakeNoncePurgeJob.run(t.app);
    expect(await nonceCount(terminal)).toBe(1);
  });

  it('purges every few minutes, in bounded batches until no old nonce is left', async () => {
    expect(NONCE_PURGE_EVERY_MS).toBeLessThanOrEqual(10 * 60 * 1000);
    const terminal = await registerTerminal(t, admin, agent1Schools[0]!);
    const old = new Date(t.clock.now().getTime() - NONCE_RETENTION_MS - 60_000);
    await t.db.insert(terminalNonces).values(Array.from({ length: 12 }, (_, i) => ({ terminalId: terminal.id, nonce: `old-nonce-${String(i).padStart(8, '0')}`, seenAt: old })));
    await heartbeat(t, terminal);
    expect(await nonceCount(terminal)).toBe(13);
    // Batches of 5: 5 + 5 + 2 (the last short one ends the run); the fresh nonce stays.
    expect(await purgeIntakeNonces(t.db, t.clock.now(), 5)).toBeGreaterThanOrEqual(12);
    expect(await nonceCount(terminal)).toBe(1);
  });
});
