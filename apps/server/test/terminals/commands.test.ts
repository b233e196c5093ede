import { COMMAND_RESEND_AFTER_MS, TERMINAL_COMMAND_STATES as S, type CommandAckBody } from '@campus/contract';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices, stateHistory, terminalCommands } from '../../src/db/schema/index.js';
import { AppError } from '../../src/platform/errors.js';
import { commandHandlersOf, type IntakeDevice } from '../../src/terminals/intake-handlers.js';
import { commandExpiryJob } from '../../src/terminals/commands.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { grantEverything, schoolIdsOf, unique } from '../resources/fixtures.js';

let t: TestApp;
let admin: string;
let agent1: string;
let agent1Schools: number[];
let agent2Schools: number[];

/** Logs the callers in again: a day on the test clock ends their sessions too. */
async function logIn(): Promise<void> {
  [admin, agent1] = await Promise.all([t.loginAs('admin'), t.loginAs('agent1')]);
}

beforeAll(async () => {
  t = await createTestApp();
  await grantEverything(t, 'agent1');
  await logIn();
  [agent1Schools, agent2Schools] = await Promise.all([schoolIdsOf(t, 'agent1'), schoolIdsOf(t, 'agent2')]);
});
afterAll(() => t.close());

const MINUTE = 60 * 1000;
const post = (token: string, verb: string, payload: unknown) =>
  t.injectAs(token, { method: 'POST', url: `/api/TerminalCommand/${verb}?view=equipmentManage`, payload: payload as object });

/** A device of its own per test, so no test hands out another's commands. */
async function newDevice(schoolId = agent1Schools[0]!): Promise<IntakeDevice> {
  const serialNumber = `G3CMD${unique()}`;
  const [device] = await t.db.insert(devices).values({ serialNumber, deviceClassCode: 'GATE-G3', state: 1, schoolId }).returning({ id: devices.id });
  return { id: device!.id, serialNumber, schoolId };
}

async function queue(device: IntakeDevice, kind = 'reboot', token = admin): Promise<number> {
  const response = await post(token, 'Add', { deviceId: device.id, kind });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.id;
}

async function command(id: number) {
  const [row] = await t.db.select().from(terminalCommands).where(eq(terminalCommands.id, id));
  return row!;
}

/** The device's heartbeat, as the intake calls it: in one transaction, on the test clock. */
const heartbeat = (device: IntakeDevice) => t.db.transaction((tx) => commandHandlersOf().commandsFor(tx, device, t.clock.now()));
const ack = (device: IntakeDevice, body: CommandAckBody) => t.db.transaction((tx) => commandHandlersOf().acknowledge(tx, device, body, t.clock.now()));

/** The error an acknowledgement is refused with (its HTTP status), or undefined when accepted. */
async function refusalOf(device: IntakeDevice, body: CommandAckBody): Promise<number | undefined> {
  try {
    await ack(device, body);
    return undefined;
  } catch (error) {
    if (error instanceof AppError) return error.httpStatus;
    throw error;
  }
}

/** What a refused move must leave untouched: state, version and history. */
async function footprint(id: number) {
  const row = await command(id);
  const [history] = await t.db.select({ n: count() }).from(stateHistory).where(and(eq(stateHistory.family, 'TerminalCommand'), eq(stateHistory.rowId, id)));
  return { state: row.state, version: row.version, attempts: row.attempts, history: history!.n };
}

async function historyOf(id: number) {
  const response = await t.injectAs(admin, { method: 'GET', url: `/api/TerminalCommand/History?id=${id}&view=equipmentManage` });
  expect(response.statusCode).toBe(200);
  return response.json().data as { verb: string; from: number | null; to: number; userId: number | null }[];
}

describe('queuing a command (POST /api/TerminalCommand/Add)', () => {
  it('queues it at the school of its device, expiring a day later, never handed out yet', async () => {
    const device = await newDevice(agent1Schools[1]);
    const id = await queue(device, 'syncFaces', agent1);
    const row = await command(id);
    expect(row).toMatchObject({ state: S.QUEUED, kind: 'syncFaces', schoolId: agent1Schools[1], attempts: 0, payload: {}, sentAt: null });
    expect(row.expiresAt!.getTime() - t.clock.now().getTime()).toBe(24 * 60 * MINUTE);
  });

  it("refuses a device outside the caller's scope, queuing nothing", async () => {
    const device = await newDevice(agent2Schools[0]);
    const response = await post(agent1, 'Add', { deviceId: device.id, kind: 'reboot' });
    expect(response.statusCode).toBe(400);
    expect(response.json().data.errors.map((e: { path: string }) => e.path)).toContain('deviceId');
    expect(await t.db.select().from(terminalCommands).where(eq(terminalCommands.deviceId, device.id))).toEqual([]);
  });

  it('refuses a kind that is not a command', async () => {
    const device = await newDevice();
    expect((await post(admin, 'Add', { deviceId: device.id, kind: 'upgrade' })).statusCode).toBe(400);
  });
});

describe('a heartbeat and the acknowledgements', () => {
  it('hands a queued command out once, marks it SENT, then records DELIVERED and SUCCEEDED', async () => {
    const device = await newDevice();
    const first = await queue(device);
    const second = await queue(device, 'syncFaces');

    const handed = await heartbeat(device);
    expect(handed.map((c) => [c.id, c.kind])).toEqual([
      [first, 'reboot'],
      [second, 'syncFaces'],
    ]);
    expect(handed[0]!.expiresAt).toBe((await command(first)).expiresAt!.toISOString());
    expect(await command(first)).toMatchObject({ state: S.SENT, attempts: 1, sentAt: t.clock.now() });
    // Handed out and not yet overdue: the next heartbeat carries nothing.
    expect(await heartbeat(device)).toEqual([]);

    await ack(device, { commandId: first, status: 'delivered', resultCode: 0 });
    expect(await command(first)).toMatchObject({ state: S.DELIVERED, deliveredAt: t.clock.now() });
    await ack(device, { commandId: first, status: 'succeeded', resultCode: 0, message: 'rebooted' });
    expect(await command(first)).toMatchObject({ state: S.SUCCEEDED, resultCode: 0, resultMessage: 'rebooted', finishedAt: t.clock.now() });

    // A command may also succeed without a separate "delivered".
    await ack(device, { commandId: second, status: 'failed', resultCode: 17, message: 'storage full' });
    expect(await command(second)).toMatchObject({ state: S.FAILED, resultCode: 17 });

    const history = await historyOf(first);
    expect(history.map((step) => [step.verb, step.from, step.to, step.userId])).toEqual([
      ['Send', S.QUEUED, S.SENT, null],
      ['Deliver', S.SENT, S.DELIVERED, null],
      ['Succeed', S.DELIVERED, S.SUCCEEDED, null],
    ]);
  });

  it('refuses a move the state does not allow with 409, changing nothing; a repeated acknowledgement is a no-op', async () => {
    const device = await newDevice();
    const id = await queue(device);
    let before = await footprint(id);
    // Never handed out: the device cannot have it.
    expect(await refusalOf(device, { commandId: id, status: 'delivered', resultCode: 0 })).toBe(409);
    expect(await footprint(id)).toEqual(before);

    await heartbeat(device);
    await ack(device, { commandId: id, status: 'succeeded', resultCode: 0 });
    before = await footprint(id);
    expect(await refusalOf(device, { commandId: id, status: 'delivered', resultCode: 0 })).toBe(409);
    expect(await refusalOf(device, { commandId: id, status: 'failed', resultCode: 3 })).toBe(409);
    expect(await footprint(id)).toEqual(before);
    // The same answer again (its first answer was lost): accepted, nothing changes.
    expect(await refusalOf(device, { commandId: id, status: 'succeeded', resultCode: 0 })).toBeUndefined();
    expect(await footprint(id)).toEqual(before);
  });

  it("answers 404 to a device acknowledging another device's command", async () => {
    const [owner, other] = [await newDevice(), await newDevice()];
    const id = await queue(owner);
    await heartbeat(owner);
    const before = await footprint(id);
    expect(await refusalOf(other, { commandId: id, status: 'delivered', resultCode: 0 })).toBe(404);
    expect(await refusalOf(other, { commandId: 999_999, status: 'delivered', resultCode: 0 })).toBe(404);
    expect(await footprint(id)).toEqual(before);
  });
});

describe('resending and expiry', () => {
  it('hands an unacknowledged command out again after five minutes, three times, then fails it', async () => {
    const device = await newDevice();
    const id = await queue(device);
    expect((await heartbeat(device)).map((c) => c.id)).toEqual([id]);
    t.clock.advance(COMMAND_RESEND_AFTER_MS - 1000);
    expect(await heartbeat(device)).toEqual([]);
    t.clock.advance(1000);
    expect((await heartbeat(device)).map((c) => c.id)).toEqual([id]);
    expect(await command(id)).toMatchObject({ state: S.SENT, attempts: 2, sentAt: t.clock.now() });
    t.clock.advance(COMMAND_RESEND_AFTER_MS);
    expect((await heartbeat(device)).map((c) => c.id)).toEqual([id]);
    expect((await command(id)).attempts).toBe(3);

    t.clock.advance(COMMAND_RESEND_AFTER_MS);
    expect(await heartbeat(device)).toEqual([]);
    expect(await command(id)).toMatchObject({ state: S.FAILED, attempts: 3, finishedAt: t.clock.now() });
    expect((await historyOf(id)).map((step) => step.verb)).toEqual(['Send', 'Send', 'Send', 'GiveUp']);
  });

  it('expires a command a day after it was queued: at the heartbeat, and by the daily sweep for silent devices', async () => {
    const [calling, silent] = [await newDevice(), await newDevice()];
    const queued = await queue(calling);
    const delivered = await queue(silent);
    await heartbeat(silent);
    await ack(silent, { commandId: delivered, status: 'delivered', resultCode: 0 });

    t.clock.advance(24 * 60 * MINUTE);
    expect(await heartbeat(calling)).toEqual([]);
    expect(await command(queued)).toMatchObject({ state: S.EXPIRED, finishedAt: t.clock.now() });
    expect((await command(delivered)).state).toBe(S.DELIVERED);

    const { expired } = (await commandExpiryJob.run(t.db, t.clock.now())) as { expired: number };
    expect(expired).toBeGreaterThanOrEqual(1);
    expect((await command(delivered)).state).toBe(S.EXPIRED);
    expect(await refusalOf(silent, { commandId: delivered, status: 'succeeded', resultCode: 0 })).toBe(409);
    await logIn();
  });
});

describe('POST /api/TerminalCommand/Cancel', () => {
  it('cancels a queued or sent command, which the device is then never handed', async () => {
    const device = await newDevice();
    const queued = await queue(device);
    const response = await post(agent1, 'Cancel', { id: queued, remark: '误操作' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data.state).toBe(S.CANCELLED);

    const sent = await queue(device);
    await heartbeat(device);
    expect((await post(admin, 'Cancel', { id: sent })).statusCode).toBe(200);
    t.clock.advance(COMMAND_RESEND_AFTER_MS);
    expect(await heartbeat(device)).toEqual([]);
    expect(await refusalOf(device, { commandId: sent, status: 'succeeded', resultCode: 0 })).toBe(409);
    expect((await historyOf(sent)).map((step) => step.verb)).toEqual(['Send', 'Cancel']);
  });

  it('refuses to cancel a finished command (409) and a command out of scope (404)', async () => {
    const device = await newDevice();
    const id = await queue(device);
    await heartbeat(device);
    await ack(device, { commandId: id, status: 'succeeded', resultCode: 0 });
    expect((await post(admin, 'Cancel', { id })).statusCode).toBe(409);

    const foreign = await queue(await newDevice(agent2Schools[0]));
    expect((await post(agent1, 'Cancel', { id: foreign })).statusCode).toBe(404);
    expect((await command(foreign)).state).toBe(S.QUEUED);
  });
});
