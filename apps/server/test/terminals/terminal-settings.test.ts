import { API_PATHS, DEFAULT_HEARTBEAT_SECONDS, DEFAULT_SUCCESS_SIMILARITY, OFFLINE_AFTER_MISSED_HEARTBEATS } from '@campus/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationLog, recognitionPersonMisses, recognitionRecords, students } from '../../src/db/schema/index.js';
import { columnOf } from '../../src/resources/engine/query.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { schoolIdsOf } from '../resources/fixtures.js';
import { event, heartbeat, registerTerminal, sendEvents } from './intake-support.js';

let t: TestApp;
let admin: string;
let agent1: string;
let schoolId: number;

beforeAll(async () => {
  t = await createTestApp();
  [admin, agent1] = await Promise.all([t.loginAs('admin'), t.loginAs('agent1')]);
  schoolId = (await schoolIdsOf(t, 'agent1'))[0]!;
});
afterAll(() => t.close());

const save = (token: string, payload: Record<string, unknown>) => t.injectAs(token, { method: 'POST', url: API_PATHS.saveTerminalSettings, payload });
const read = async (token: string) => (await t.injectAs(token, { method: 'GET', url: API_PATHS.terminalSettings })).json().data;

describe('terminal settings', () => {
  it('answers the defaults until a company user saves others, and logs the change', async () => {
    expect(await read(agent1)).toEqual({ heartbeatSeconds: DEFAULT_HEARTBEAT_SECONDS, successSimilarity: DEFAULT_SUCCESS_SIMILARITY });
    const saved = await save(admin, { heartbeatSeconds: 60, successSimilarity: 75.25 });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().data).toEqual({ heartbeatSeconds: 60, successSimilarity: 75.3 });
    expect(await read(agent1)).toEqual({ heartbeatSeconds: 60, successSimilarity: 75.3 });
    const [logged] = await t.db.select().from(operationLog).where(and(eq(operationLog.family, 'Terminal'), eq(operationLog.action, 'settings')));
    expect(logged?.changes).toEqual({ heartbeatSeconds: [DEFAULT_HEARTBEAT_SECONDS, 60], successSimilarity: [DEFAULT_SUCCESS_SIMILARITY, 75.3] });
  });

  it('refuses values out of bounds with field errors, and agents whatever their grant', async () => {
    for (const payload of [{ heartbeatSeconds: 4, successSimilarity: 70 }, { heartbeatSeconds: 30.5, successSimilarity: 70 }, { heartbeatSeconds: 30, successSimilarity: 101 }, { heartbeatSeconds: '30', successSimilarity: 70 }]) {
      const refused = await save(admin, payload);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().data.errors.length).toBeGreaterThan(0);
    }
    expect((await save(agent1, { heartbeatSeconds: 30, successSimilarity: 70 })).statusCode).toBe(403);
  });

  it('tells devices the saved interval and counts them offline by it', async () => {
    await save(admin, { heartbeatSeconds: 45, successSimilarity: DEFAULT_SUCCESS_SIMILARITY });
    const terminal = await registerTerminal(t, admin, schoolId);
    const answer = await heartbeat(t, terminal);
    expect(answer.json().data.intervalSeconds).toBe(45);
    const row = (await t.injectAs(admin, { method: 'GET', url: `/api/Terminal/Get?id=${terminal.id}` })).json().data;
    expect(new Date(row.offlineAt).getTime() - new Date(row.lastSeenAt).getTime()).toBe(OFFLINE_AFTER_MISSED_HEARTBEATS * 45 * 1000);
  });

  it("stores a known person's event under the success similarity as a failed recognition of that person", async () => {
    await save(admin, { heartbeatSeconds: 30, successSimilarity: 80 });
    const terminal = await registerTerminal(t, admin, schoolId);
    const [student] = await t.db.select({ id: columnOf(students, 'id') }).from(students).where(eq(columnOf(students, 'schoolId'), schoolId)).limit(1);
    const personId = Number(student!.id);
    await sendEvents(t, terminal, [event(t, 1, { personKind: 1, personId, similarity: 79.9 }), event(t, 2, { personKind: 1, personId, similarity: 80 })]);
    const rows = await t.db.select().from(recognitionRecords).where(eq(columnOf(recognitionRecords, 'deviceId'), terminal.deviceId));
    const bySerial = Object.fromEntries(rows.map((row) => [Number(row.eventSerial), row]));
    expect(bySerial[1]).toMatchObject({ personKind: 1, personId, success: false });
    expect(bySerial[2]).toMatchObject({ personKind: 1, personId, success: true });
    const [misses] = await t.db
      .select({ failed: recognitionPersonMisses.failed })
      .from(recognitionPersonMisses)
      .where(and(eq(recognitionPersonMisses.personKind, 1), eq(recognitionPersonMisses.personId, personId), eq(recognitionPersonMisses.schoolId, schoolId)));
    expect(misses?.failed).toBeGreaterThanOrEqual(1);
  });
});
