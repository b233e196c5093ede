/**
 * The device order's workflow through the HTTP routes, as the console calls them: confirm, ship
 * (which creates the delivery and marks the picked devices delivered), complete, cancel; refused
 * from every wrong state, and refused to agents, who only order.
 */
import { ORDER_STATE_OPTIONS, Order } from '@campus/contract';
import { and, count, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceDeliveries, devices, operationLog, orders, stateHistory } from '../../src/db/schema/index.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { schoolIdsOf } from './fixtures.js';

type Row = Record<string, unknown>;

let t: TestApp;
let admin: string;
let agent1: string;
let agent1Schools: number[];

beforeAll(async () => {
  t = await createTestApp();
  [admin, agent1] = await Promise.all([t.loginAs('admin'), t.loginAs('agent1')]);
  agent1Schools = await schoolIdsOf(t, 'agent1');
});
afterAll(() => t.close());

const VIEW = 'view=orderManage';
const post = (token: string, family: string, verb: string, payload: unknown, view = VIEW) =>
  t.injectAs(token, { method: 'POST', url: `/api/${family}/${verb}?${view}`, payload: payload as object });
const order = (token: string, verb: string, payload: unknown) => post(token, 'Order', verb, payload);

/** Demo stock (never delivered): GATE-G3 G39000–G39005 and ATT-A8 A89100–A89103. */
const stock = { gates: ['G39000', 'G39001', 'G39002', 'G39003', 'G39004', 'G39005'], attendance: ['A89100', 'A89101', 'A89102', 'A89103'] };

async function addOrder(token = agent1): Promise<number> {
  const response = await order(token, 'Add', {
    schoolId: agent1Schools[0],
    consigneeName: '李老师',
    consigneePhone: '13900003333',
    deliveryAddress: '学校总务处',
    items: [{ deviceClassCode: 'GATE-G3', quantity: 1 }, { deviceClassCode: 'ATT-A8', quantity: 1 }],
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.id as number;
}

const storedOrder = async (id: number) => (await t.db.select().from(orders).where(eq(orders.id, id)))[0]!;
const deliveryCount = async () => (await t.db.select({ n: count() }).from(deviceDeliveries))[0]!.n;
const deviceStates = async (serials: string[]) =>
  Object.fromEntries((await t.db.select().from(devices).where(inArray(devices.serialNumber, serials))).map((d) => [d.serialNumber, [d.state, d.schoolId, d.version]]));

/** Everything a refused transition must leave as it was: the row, its history, the log, deliveries, stock. */
async function footprint(id: number) {
  const { updatedAt: _updatedAt, ...row } = await storedOrder(id);
  const [history] = await t.db.select({ n: count() }).from(stateHistory).where(and(eq(stateHistory.family, 'Order'), eq(stateHistory.rowId, id)));
  const [logs] = await t.db.select({ n: count() }).from(operationLog);
  return { row, history: history!.n, logs: logs!.n, deliveries: await deliveryCount(), stock: await deviceStates([...stock.gates, ...stock.attendance]) };
}

/** A body each transition accepts apart from the state, so only the state decides. */
const bodyFor = (verb: string, id: number): Row => (verb === 'Ship' ? { id, serialNumbers: `${stock.gates[5]}\n${stock.attendance[3]}`, warrantyMonths: 12 } : { id });

describe('Order workflow through the routes', () => {
  it('confirms, ships and completes an order; Ship creates the delivery and delivers the picked devices', async () => {
    const id = await addOrder();
    expect((await storedOrder(id)).state).toBe(1);

    const confirmed = await order(admin, 'Confirm', { id, version: 1 });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().data).toEqual({ id, version: 2, state: 2 });

    const shipped = await order(admin, 'Ship', { id, serialNumbers: `${stock.gates[0]}, ${stock.attendance[0]}`, warrantyMonths: 18 });
    expect(shipped.statusCode, shipped.body).toBe(200);
    expect(shipped.json().data).toEqual({ id, version: 3, state: 3 });
    const row = await storedOrder(id);
    expect(row.deliveryId).toEqual(expect.any(Number));

    // The delivery is a row of equipmentDelivery: found by the order's school, by its agent too.
    for (const token of [admin, agent1]) {
      const deliveries = await post(token, 'DeviceDelivery', 'Search', { pageIndex: 1, pageSize: 50, schoolId: row.schoolId }, 'view=equipmentDelivery');
      expect(deliveries.statusCode, deliveries.body).toBe(200);
      const delivery = deliveries.json().data.items.find((d: Row) => d.id === row.deliveryId);
      expect(delivery).toMatchObject({ deliveryNo: `FH${row.orderNo!.slice(2)}`, schoolId: row.schoolId, agentId: row.agentId, deviceCount: 2, warrantyMonths: 18, consigneeName: '李老师' });
    }
    const delivered = await t.db.select().from(devices).where(inArray(devices.serialNumber, [stock.gates[0]!, stock.attendance[0]!]));
    expect(delivered.map((device) => [device.state, device.schoolId])).toEqual([
      [2, row.schoolId],
      [2, row.schoolId],
    ]);

    const completed = await order(admin, 'Complete', { id });
    expect(completed.statusCode, completed.body).toBe(200);
    expect(completed.json().data).toEqual({ id, version: 4, state: 4 });

    const history = await t.injectAs(agent1, { method: 'GET', url: `/api/Order/History?id=${id}&${VIEW}` });
    expect(history.statusCode, history.body).toBe(200);
    expect(history.json().data.map((e: Row) => [e.verb, e.from, e.to, e.remark, e.userName])).toEqual([
      ['Confirm', 1, 2, null, '系统管理员'],
      ['Ship', 2, 3, null, '系统管理员'],
      ['Complete', 3, 4, null, '系统管理员'],
    ]);
  });

  it('cancels an order while submitted and while confirmed', async () => {
    const submitted = await addOrder();
    expect((await order(admin, 'Cancel', { id: submitted })).json().data).toMatchObject({ state: 5 });
    const confirmed = await addOrder();
    await order(admin, 'Confirm', { id: confirmed });
    expect((await order(admin, 'Cancel', { id: confirmed })).json().data).toMatchObject({ state: 5 });
    expect((await storedOrder(confirmed)).deliveryId).toBeNull();
  });

  it('answers 409 naming the state to every transition from every wrong state, and changes nothing', async () => {
    const id = await addOrder();
    for (const transition of Order.workflow!.transitions) {
      for (const option of ORDER_STATE_OPTIONS.filter((o) => !(transition.from as readonly number[]).includes(o.value))) {
        await t.db.update(orders).set({ state: option.value }).where(eq(orders.id, id));
        const before = await footprint(id);
        const response = await order(admin, transition.verb, bodyFor(transition.verb, id));
        expect(response.statusCode, `${transition.verb} from ${option.en}`).toBe(409);
        expect(response.json()).toMatchObject({ key: 'error.wrongState', message: expect.stringContaining(option.en) });
        expect(await footprint(id), `${transition.verb} from ${option.en}`).toEqual(before);
      }
    }
  });

  it("answers 403 to an agent running the company's transitions on its own order, and changes nothing", async () => {
    const id = await addOrder();
    const own = await t.injectAs(agent1, { method: 'GET', url: `/api/Order/Get?id=${id}&${VIEW}` });
    expect(own.statusCode).toBe(200);
    for (const transition of Order.workflow!.transitions) {
      // Each from a state the transition allows, so only the grant refuses it.
      await t.db.update(orders).set({ state: transition.from[0] as number }).where(eq(orders.id, id));
      const before = await footprint(id);
      const response = await order(agent1, transition.verb, bodyFor(transition.verb, id));
      expect(response.statusCode, transition.verb).toBe(403);
      expect(await footprint(id), transition.verb).toEqual(before);
    }
  });
});
