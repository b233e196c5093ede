import { DeviceDelivery, Order, frameOf, type ServerMessage, type StoredRowOf } from '@campus/contract';
import { count, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceDeliveries, devices, orderItems, orders, users } from '../../src/db/schema/index.js';
import type { AuthUser } from '../../src/platform/auth.js';
import { loadCallerState } from '../../src/platform/caller-state.js';
import { AppError } from '../../src/platform/errors.js';
import type { EngineContext, Row } from '../../src/resources/engine/context.js';
import { orderModule } from '../../src/resources/order.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { schoolIdsOf, userIdOf } from './fixtures.js';

let t: TestApp;
let admin: string;
let agent1: string;
let agent2: string;
let agent1Schools: number[];
let agent2Schools: number[];

beforeAll(async () => {
  t = await createTestApp();
  [admin, agent1, agent2] = await Promise.all([t.loginAs('admin'), t.loginAs('agent1'), t.loginAs('agent2')]);
  [agent1Schools, agent2Schools] = await Promise.all([schoolIdsOf(t, 'agent1'), schoolIdsOf(t, 'agent2')]);
});
afterAll(() => t.close());

const VIEW = 'view=orderManage';
const post = (token: string, verb: string, payload: unknown) => t.injectAs(token, { method: 'POST', url: `/api/Order/${verb}?${VIEW}`, payload: payload as object });
const get = (token: string, id: number) => t.injectAs(token, { method: 'GET', url: `/api/Order/Get?id=${id}&${VIEW}` });
const errorsOf = (response: { json(): { data: { errors: { path: string; message: string }[] } } }) => response.json().data.errors;

/** Demo prices of the seeded models, in fen. */
const GATE_PRICE = 680000;
const ATTENDANCE_PRICE = 320000;

const orderBody = (schoolId: number, items: Row[] = [{ deviceClassCode: 'GATE-G3', quantity: 2 }, { deviceClassCode: 'ATT-A8', quantity: 1 }]) => ({
  schoolId,
  consigneeName: '李老师',
  consigneePhone: '13900003333',
  deliveryAddress: '学校总务处',
  items,
});

async function addOrder(token: string, body: Row): Promise<number> {
  const response = await post(token, 'Add', body);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.id as number;
}

const storedOrder = async (id: number) => (await t.db.select().from(orders).where(eq(orders.id, id)))[0]!;
const storedLines = (id: number) => t.db.select().from(orderItems).where(eq(orderItems.orderId, id)).orderBy(orderItems.lineNo);

describe('POST /api/Order/Add', () => {
  it('prices every line from its model, totals the order and numbers it, ignoring the amounts a client sends', async () => {
    const id = await addOrder(agent1, orderBody(agent1Schools[0]!, [
      { deviceClassCode: 'GATE-G3', quantity: 2, unitPrice: 1, amount: 1 },
      { deviceClassCode: 'ATT-A8', quantity: 3 },
    ]));
    const order = await storedOrder(id);
    expect(order.totalAmount).toBe(2 * GATE_PRICE + 3 * ATTENDANCE_PRICE);
    expect(order.orderNo).toMatch(new RegExp(`^DD\\d{8}${String(id).padStart(6, '0')}$`));
    expect(order.state).toBe(1);
    expect((await storedLines(id)).map((l) => [l.lineNo, l.deviceClassCode, l.quantity, l.unitPrice, l.amount])).toEqual([
      [1, 'GATE-G3', 2, GATE_PRICE, 2 * GATE_PRICE],
      [2, 'ATT-A8', 3, ATTENDANCE_PRICE, 3 * ATTENDANCE_PRICE],
    ]);
  });

  it('refuses a total sent by the client and stores nothing', async () => {
    const before = (await t.db.select({ n: count() }).from(orders))[0]!.n;
    const response = await post(admin, 'Add', { ...orderBody(agent1Schools[0]!), totalAmount: 1 });
    expect(response.statusCode).toBe(400);
    expect((await t.db.select({ n: count() }).from(orders))[0]!.n).toBe(before);
  });

  it("makes the calling agent the order's agent, whatever agent it names", async () => {
    const id = await addOrder(agent1, { ...orderBody(agent1Schools[0]!), agentId: await userIdOf(t, 'agent2') });
    expect((await storedOrder(id)).agentId).toBe(await userIdOf(t, 'agent1'));
  });

  it("gives an order added by company staff the school's agent when none is named", async () => {
    const id = await addOrder(admin, orderBody(agent2Schools[0]!));
    expect((await storedOrder(id)).agentId).toBe(await userIdOf(t, 'agent2'));
  });

  it('names the line and field of each bad line, and writes neither the order nor any line', async () => {
    const before = (await t.db.select({ n: count() }).from(orders))[0]!.n;
    const badQuantity = await post(admin, 'Add', orderBody(agent1Schools[0]!, [{ deviceClassCode: 'GATE-G3', quantity: 1 }, { deviceClassCode: 'ATT-A8', quantity: 0 }]));
    expect(badQuantity.statusCode).toBe(400);
    expect(errorsOf(badQuantity).map((e) => e.path)).toEqual(['items.1.quantity']);
    const unknownModel = await post(admin, 'Add', orderBody(agent1Schools[0]!, [{ deviceClassCode: 'GATE-G3', quantity: 1 }, { deviceClassCode: 'NO-SUCH', quantity: 1 }]));
    expect(unknownModel.statusCode).toBe(400);
    expect(errorsOf(unknownModel)).toMatchObject([{ path: 'items.1.deviceClassCode', message: 'Product model not found' }]);
    const noLines = await post(admin, 'Add', orderBody(agent1Schools[0]!, []));
    expect(errorsOf(noLines)[0]!.path).toBe('items');
    expect((await t.db.select({ n: count() }).from(orders))[0]!.n).toBe(before);
  });

  it("refuses an agent's order for another agent's school", async () => {
    const response = await post(agent1, 'Add', orderBody(agent2Schools[0]!));
    expect(response.statusCode).toBe(400);
    expect(errorsOf(response)[0]!.path).toBe('schoolId');
  });
});

describe('GET /api/Order/Get', () => {
  it('answers the lines in line order with the model names; Search leaves them out', async () => {
    const id = await addOrder(admin, orderBody(agent1Schools[0]!));
    const got = (await get(admin, id)).json().data;
    expect(got.items).toEqual([
      { lineNo: 1, deviceClassCode: 'GATE-G3', deviceClassCodeLabel: '人脸识别闸机 G3', quantity: 2, unitPrice: GATE_PRICE, amount: 2 * GATE_PRICE },
      { lineNo: 2, deviceClassCode: 'ATT-A8', deviceClassCodeLabel: '人脸考勤机 A8', quantity: 1, unitPrice: ATTENDANCE_PRICE, amount: ATTENDANCE_PRICE },
    ]);
    expect(got.totalAmount).toBe(2 * GATE_PRICE + ATTENDANCE_PRICE);
    const page = (await post(admin, 'Search', { orderNo: got.orderNo })).json().data;
    expect(page.items).toHaveLength(1);
    expect(page.items[0].items).toBeUndefined();
  });

  it("keeps an agent's order and its lines from another agent", async () => {
    const id = await addOrder(agent1, orderBody(agent1Schools[0]!));
    expect((await get(agent2, id)).statusCode).toBe(404);
    expect((await post(agent2, 'Update', { id, version: 1, items: [{ deviceClassCode: 'ATT-A8', quantity: 1 }] })).statusCode).toBe(404);
    expect(await storedLines(id)).toHaveLength(2);
  });
});

describe('POST /api/Order/Update', () => {
  it('replaces the lines and the total with the order, in one transaction', async () => {
    const id = await addOrder(admin, orderBody(agent1Schools[0]!));
    const response = await post(admin, 'Update', { id, version: 1, consigneeName: '赵老师', items: [{ deviceClassCode: 'ATT-A8', quantity: 4 }] });
    expect(response.statusCode, response.body).toBe(200);
    expect(await storedOrder(id)).toMatchObject({ consigneeName: '赵老师', totalAmount: 4 * ATTENDANCE_PRICE, version: 2 });
    expect((await storedLines(id)).map((l) => [l.lineNo, l.deviceClassCode, l.quantity])).toEqual([[1, 'ATT-A8', 4]]);

    // Lines not sent stay as they are.
    expect((await post(admin, 'Update', { id, version: 2, remark: '加急' })).statusCode).toBe(200);
    expect(await storedLines(id)).toHaveLength(1);
    expect((await storedOrder(id)).totalAmount).toBe(4 * ATTENDANCE_PRICE);
  });

  it('leaves the order and its old lines unchanged when one line is bad', async () => {
    const id = await addOrder(admin, orderBody(agent1Schools[0]!));
    const before = { order: await storedOrder(id), lines: await storedLines(id) };
    const response = await post(admin, 'Update', {
      id,
      version: 1,
      consigneeName: '不应保存',
      items: [{ deviceClassCode: 'ATT-A8', quantity: 1 }, { deviceClassCode: 'ATT-A8', quantity: 1 }, { deviceClassCode: 'NO-SUCH', quantity: 1 }],
    });
    expect(response.statusCode).toBe(400);
    expect(errorsOf(response)).toMatchObject([{ path: 'items.2.deviceClassCode', message: 'Product model not found' }]);
    expect(await storedOrder(id)).toEqual(before.order);
    expect(await storedLines(id)).toEqual(before.lines);
  });

  it('refuses to change an order that is no longer submitted, naming its state', async () => {
    const id = await addOrder(admin, orderBody(agent1Schools[0]!));
    await t.db.update(orders).set({ state: 2 }).where(eq(orders.id, id));
    const response = await post(admin, 'Update', { id, version: 1, consigneeName: '改不了', items: [{ deviceClassCode: 'ATT-A8', quantity: 9 }] });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ key: 'error.notEditableInState', message: 'The record is Confirmed: it can no longer be changed' });
    expect((await storedOrder(id)).consigneeName).toBe('李老师');
    expect(await storedLines(id)).toHaveLength(2);
    // Nor may it be deleted: the company has committed to it.
    expect((await post(admin, 'BatchDelete', [id])).statusCode).toBe(409);
  });
});

/** An engine context for a demo account, built as resolveContext builds it for a request. */
async function contextAs(loginName: string, db: EngineContext['db']): Promise<EngineContext> {
  const [row] = await t.db.select().from(users).where(eq(users.loginName, loginName));
  const user: AuthUser = { id: row!.id, loginName, name: row!.name, type: row!.type, parentId: row!.parentId, salesTeamId: row!.salesTeamId, sellerPosition: row!.sellerPosition, sessionId: 0 };
  const { grant, scope, probes } = await loadCallerState(t.db, user);
  return { db, user, scope, def: Order, view: Order.views[0]!, buttons: grant.get(frameOf('orderManage').fixedId) ?? new Set(), probes, locale: 'zh', clock: t.app.clock, server: t.app };
}

/** Runs the Ship hook as the workflow engine does: in one transaction, on the locked row, then sets the state. */
async function ship(orderId: number, serialNumbers: string, warrantyMonths = 12): Promise<Row> {
  // Read the caller's state first: an embedded database has one connection, held by the transaction.
  const ctx = await contextAs('admin', t.db);
  return t.db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
    const extra = (await orderModule.transitions!.Ship!({ ...ctx, db: tx }, order as StoredRowOf<typeof Order>, { serialNumbers, warrantyMonths })) ?? {};
    await tx.update(orders).set({ ...extra, state: 3 }).where(eq(orders.id, orderId));
    return extra;
  });
}

async function confirmedOrder(items: Row[]): Promise<number> {
  const id = await addOrder(admin, orderBody(agent1Schools[0]!, items));
  await t.db.update(orders).set({ state: 2 }).where(eq(orders.id, id));
  return id;
}

const deviceStates = async (serials: string[]) =>
  Object.fromEntries((await t.db.select().from(devices).where(inArray(devices.serialNumber, serials))).map((d) => [d.serialNumber, [d.state, d.schoolId]]));

describe('Order Ship transition', () => {
  it('refuses unknown, repeated, not-in-stock, wrong-model and wrong-count picks without changing anything', async () => {
    const id = await confirmedOrder([{ deviceClassCode: 'GATE-G3', quantity: 2 }, { deviceClassCode: 'ATT-A8', quantity: 1 }]);
    const [installed] = await t.db.select().from(devices).where(eq(devices.state, 3)).limit(1);
    const deliveriesBefore = (await t.db.select({ n: count() }).from(deviceDeliveries))[0]!.n;
    const stock = ['G39000', 'G39001', 'G39002', 'A89100'];
    const before = await deviceStates(stock);

    const refusals: [string, ServerMessage][] = [
      ['G39000\nG39001\nNOPE1', { key: 'order.serialsUnknown', params: { serials: ['NOPE1'] } }],
      ['G39000, G39000, A89100', { key: 'order.serialsTwice', params: { serials: ['G39000'] } }],
      [`G39000 G39001 ${installed!.serialNumber}`, { key: 'order.serialsNotInStock', params: { serials: [String(installed!.serialNumber)] } }],
      ['G39000 G39001 G39002', { key: 'order.serialsMismatch', params: { details: ['GATE-G3: 2 / 3', 'ATT-A8: 1 / 0'] } }],
      ['G39000 A89100', { key: 'order.serialsMismatch', params: { details: ['GATE-G3: 2 / 1'] } }],
      ['', { key: 'order.noSerials' }],
    ];
    for (const [serials, message] of refusals) {
      const failure = await ship(id, serials).catch((error: unknown) => error);
      expect(failure, serials).toBeInstanceOf(AppError);
      expect((failure as AppError).fieldProblems).toEqual([{ path: 'serialNumbers', ...message }]);
    }
    expect(await deviceStates(stock)).toEqual(before);
    expect((await t.db.select({ n: count() }).from(deviceDeliveries))[0]!.n).toBe(deliveriesBefore);
    expect(await storedOrder(id)).toMatchObject({ state: 2, deliveryId: null });
  });

  it("creates the order's delivery and marks the picked devices delivered to its school", async () => {
    const id = await confirmedOrder([{ deviceClassCode: 'GATE-G3', quantity: 2 }, { deviceClassCode: 'ATT-A8', quantity: 1 }]);
    const order = await storedOrder(id);
    const { deliveryId } = await ship(id, 'G39004\nG39005\nA89103', 24);

    const [delivery] = await t.db.select().from(deviceDeliveries).where(eq(deviceDeliveries.id, Number(deliveryId)));
    expect(delivery).toMatchObject({
      deliveryNo: `FH${order.orderNo!.slice(2)}`,
      schoolId: order.schoolId,
      agentId: order.agentId,
      deviceCount: 3,
      warrantyMonths: 24,
      consigneeName: order.consigneeName,
      consigneePhone: order.consigneePhone,
      deliveryAddress: order.deliveryAddress,
    });
    expect(await storedOrder(id)).toMatchObject({ state: 3, deliveryId });
    expect(await deviceStates(['G39004', 'G39005', 'A89103'])).toEqual({
      G39004: [2, order.schoolId],
      G39005: [2, order.schoolId],
      A89103: [2, order.schoolId],
    });
    // The delivery is a row of equipmentDelivery like any other, readable by the order's agent.
    const agentView = await t.injectAs(agent1, { method: 'GET', url: `/api/${DeviceDelivery.name}/Get?id=${String(deliveryId)}` });
    expect(agentView.statusCode).toBe(200);
    // Shipped devices are no longer in stock for the next order.
    const next = await confirmedOrder([{ deviceClassCode: 'ATT-A8', quantity: 1 }]);
    expect(((await ship(next, 'A89103').catch((error: unknown) => error)) as AppError).fieldProblems).toEqual([{ path: 'serialNumbers', key: 'order.serialsNotInStock', params: { serials: ['A89103'] } }]);
  });
});
