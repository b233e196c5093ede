import { MaintenanceTicket, TICKET_STATE_OPTIONS, type ResourceDef, type TransitionDef } from '@campus/contract';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceClasses, devices, maintenanceTickets, operationLog, stateHistory, users } from '../../src/db/schema/index.js';
import { AppError } from '../../src/platform/errors.js';
import { hashPassword, md5Hex } from '../../src/platform/passwords.js';
import type { EngineContext } from '../../src/resources/engine/context.js';
import { runTransition } from '../../src/resources/engine/workflow.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { grantEverything, grantReadOnly, schoolIdsOf, userIdOf, validAddBody } from './fixtures.js';

let t: TestApp;
let admin: string;
let agent1: string;
let agent1Schools: number[];
let agent2Schools: number[];
let staffId: number;

beforeAll(async () => {
  t = await createTestApp();
  await grantEverything(t, 'agent1');
  await grantReadOnly(t, 'sales2', [615]);
  [admin, agent1] = await Promise.all([t.loginAs('admin'), t.loginAs('agent1')]);
  [agent1Schools, agent2Schools] = await Promise.all([schoolIdsOf(t, 'agent1'), schoolIdsOf(t, 'agent2')]);
  staffId = await userIdOf(t, 'admin');
});
afterAll(() => t.close());

const post = (token: string, url: string, payload: unknown) => t.injectAs(token, { method: 'POST', url, payload: payload as object });
const ticketUrl = (verb: string) => `/api/MaintenanceTicket/${verb}`;

async function addTicket(schoolId = agent1Schools[0]!): Promise<number> {
  const response = await post(admin, ticketUrl('Add'), await validAddBody(t, MaintenanceTicket, schoolId));
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.id;
}

async function ticket(id: number) {
  const [row] = await t.db.select().from(maintenanceTickets).where(eq(maintenanceTickets.id, id));
  return row!;
}

/** What a refused transition must leave untouched: the row's state and version, its history and its log. */
async function footprint(id: number) {
  const row = await ticket(id);
  const [history] = await t.db.select({ n: count() }).from(stateHistory).where(and(eq(stateHistory.family, 'MaintenanceTicket'), eq(stateHistory.rowId, id)));
  const [logs] = await t.db.select({ n: count() }).from(operationLog).where(eq(operationLog.family, 'MaintenanceTicket'));
  return { state: row.state, version: row.version, history: history!.n, logs: logs!.n };
}

/** A body that passes validation for each transition, so only the state decides. */
const validBody = (transition: TransitionDef, id: number): Record<string, unknown> => {
  const fields: Record<string, unknown> = { Assign: { assigneeId: staffId }, Complete: { resolution: '已修复' }, Close: { remark: '重复报修' } };
  return { id, ...(fields[transition.verb] as object | undefined) };
};

describe('POST /api/MaintenanceTicket/Add', () => {
  it('starts a ticket open, numbered by the server, at the school of its device', async () => {
    const id = await addTicket(agent1Schools[1]);
    const row = await ticket(id);
    expect(row.state).toBe(1);
    expect(row.schoolId).toBe(agent1Schools[1]);
    expect(row.ticketNo).toMatch(/^WX\d{8}\d{6}$/);
  });

  it('never accepts the state from a client, on Add or Update', async () => {
    const body = await validAddBody(t, MaintenanceTicket, agent1Schools[0]!);
    expect((await post(admin, ticketUrl('Add'), { ...body, state: 4 })).statusCode).toBe(400);
    const id = await addTicket();
    expect((await post(admin, ticketUrl('Update'), { id, version: 1, state: 4 })).statusCode).toBe(400);
    expect((await ticket(id)).state).toBe(1);
  });
});

describe('workflow transitions', () => {
  it('refuses a transition from every wrong state with 409 naming the state, and changes nothing', async () => {
    const id = await addTicket();
    for (const transition of MaintenanceTicket.workflow.transitions) {
      for (const option of TICKET_STATE_OPTIONS.filter((o) => !(transition.from as readonly number[]).includes(o.value))) {
        await t.db.update(maintenanceTickets).set({ state: option.value }).where(eq(maintenanceTickets.id, id));
        const before = await footprint(id);
        const response = await t.injectAs(admin, { method: 'POST', url: ticketUrl(transition.verb), payload: validBody(transition, id), headers: { 'accept-language': 'zh-CN' } });
        expect(response.statusCode, `${transition.verb} from ${option.value}`).toBe(409);
        expect(response.json()).toMatchObject({ key: 'error.wrongState', message: expect.stringContaining(option.zh) });
        expect(await footprint(id)).toEqual(before);
      }
    }
  });

  it('takes a ticket from open to done, keeping who did what in the history and the log', async () => {
    const id = await addTicket();
    const assigned = await post(admin, ticketUrl('Assign'), { id, version: 1, assigneeId: staffId, remark: '请尽快处理' });
    expect(assigned.json().data).toEqual({ id, version: 2, state: 2 });
    expect((await post(admin, ticketUrl('Start'), { id })).json().data).toEqual({ id, version: 3, state: 3 });
    const done = await post(admin, ticketUrl('Complete'), { id, resolution: '更换摄像头', remark: '已回访' });
    expect(done.json().data).toEqual({ id, version: 4, state: 4 });
    expect(await ticket(id)).toMatchObject({ state: 4, assigneeId: staffId, resolution: '更换摄像头' });

    const history = await t.injectAs(agent1, { method: 'GET', url: `${ticketUrl('History')}?id=${id}` });
    expect(history.statusCode).toBe(200);
    expect(history.json().data.map((e: Record<string, unknown>) => [e.verb, e.from, e.to, e.remark, e.userName])).toEqual([
      ['Assign', 1, 2, '请尽快处理', '系统管理员'],
      ['Start', 2, 3, null, '系统管理员'],
      ['Complete', 3, 4, '已回访', '系统管理员'],
    ]);
    const [log] = await t.db.select().from(operationLog).where(and(eq(operationLog.family, 'MaintenanceTicket'), eq(operationLog.action, 'complete')));
    expect(log).toMatchObject({ ids: [id], userId: staffId, changes: { state: [3, 4], resolution: [null, '更换摄像头'] } });
  });

  it("reads back in the operation log with the ticket's number and the assignee's name, not their ids", async () => {
    const id = await addTicket();
    await post(admin, ticketUrl('Assign'), { id, assigneeId: staffId, remark: '请尽快处理' });
    const page = await post(admin, '/api/OperationLog/Search?view=mainOperationLog', { family: 'MaintenanceTicket', action: 'assign', pageSize: 50 });
    expect(page.statusCode, page.body).toBe(200);
    const entry = page.json().data.items.find((row: { ids: number[] }) => row.ids.includes(id));
    const { ticketNo } = await ticket(id);
    expect(ticketNo).toMatch(/^WX\d{8}/);
    expect(entry.labels).toEqual({ records: { [id]: ticketNo }, values: { assigneeId: { [staffId]: '系统管理员' } } });
  });

  it('names the device of a ticket by its product model and serial number (issue 26)', async () => {
    const id = await addTicket();
    const found = await t.injectAs(admin, { method: 'GET', url: `${ticketUrl('Get')}?id=${id}` });
    const [device] = await t.db.select({ serialNumber: devices.serialNumber, model: deviceClasses.name }).from(devices).innerJoin(deviceClasses, eq(deviceClasses.code, devices.deviceClassCode)).where(eq(devices.id, found.json().data.deviceId));
    expect(found.json().data.deviceIdLabel).toBe(`${device!.model} ${device!.serialNumber}`);
  });

  it('answers 409 to a stale version and leaves the row as it was', async () => {
    const id = await addTicket();
    const before = await footprint(id);
    const response = await post(admin, ticketUrl('Assign'), { id, version: 7, assigneeId: staffId });
    expect(response.statusCode).toBe(409);
    expect(await footprint(id)).toEqual(before);
  });

  it("validates the transition's fields: required, and an assignee must be company staff", async () => {
    const id = await addTicket();
    const missing = await post(admin, ticketUrl('Assign'), { id });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().data.errors[0].path).toBe('assigneeId');
    const agent = await post(admin, ticketUrl('Assign'), { id, assigneeId: await userIdOf(t, 'agent1') });
    expect(agent.statusCode).toBe(400);
    expect(agent.json().data.errors).toMatchObject([{ path: 'assigneeId', key: 'validation.referenceNotFound', message: 'Assignee not found' }]);
    expect((await post(admin, ticketUrl('Close'), { id, remark: '' })).statusCode).toBe(400);
    expect((await ticket(id)).state).toBe(1);
  });

  it('answers 403 without the transition button, and 404 outside the scope', async () => {
    const id = await addTicket();
    const readOnly = await t.loginAs('sales2');
    expect((await post(readOnly, ticketUrl('Start'), { id })).statusCode).toBe(403);
    const elsewhere = await addTicket(agent2Schools[0]);
    expect((await post(agent1, ticketUrl('Close'), { id: elsewhere, remark: '越权' })).statusCode).toBe(404);
    expect((await t.injectAs(agent1, { method: 'GET', url: `${ticketUrl('History')}?id=${elsewhere}` })).statusCode).toBe(404);
    expect((await ticket(elsewhere)).state).toBe(1);
  });

  it('lets exactly one of twenty concurrent calls of one transition win', async () => {
    const id = await addTicket();
    await post(admin, ticketUrl('Assign'), { id, assigneeId: staffId });
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(admin, ticketUrl('Start'), { id })));
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([200, ...Array<number>(19).fill(409)]);
    const starts = await t.db.select().from(stateHistory).where(and(eq(stateHistory.rowId, id), eq(stateHistory.verb, 'Start')));
    expect(starts).toHaveLength(1);
    expect((await ticket(id)).version).toBe(3);
  });

  it("checks the caller's refund password on a transition that asks for it", async () => {
    const id = await addTicket();
    await t.db.update(users).set({ refundPasswordHash: await hashPassword(md5Hex('654321')) }).where(eq(users.id, staffId));
    const reopen: TransitionDef = { verb: 'Close', from: [1], to: 5, button: 'state', label: { zh: '关闭', en: 'Close' }, reauth: 'refundPassword' };
    const def: ResourceDef = { ...MaintenanceTicket, workflow: { ...MaintenanceTicket.workflow, transitions: [reopen] } };
    const [user] = await t.db.select().from(users).where(eq(users.id, staffId));
    const ctx = { db: t.db, user: { ...user!, sessionId: 0 }, scope: { kind: 'all' }, def, view: def.views[0]!, buttons: new Set(['state']), probes: {}, locale: 'en', clock: t.clock } as unknown as EngineContext;

    const wrong = await runTransition(ctx, reopen, { id, reauthPassword: md5Hex('111111') }).catch((error: unknown) => error);
    expect(wrong).toBeInstanceOf(AppError);
    expect(wrong).toMatchObject({ httpStatus: 400, fieldProblems: [{ path: 'reauthPassword', key: 'workflow.wrongRefundPassword' }] });
    expect((await ticket(id)).state).toBe(1);
    expect(await runTransition(ctx, reopen, { id, reauthPassword: md5Hex('654321') })).toMatchObject({ state: 5 });
  });
});
