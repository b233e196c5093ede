import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices, operationLog, terminals } from '../../src/db/schema/index.js';
import { probesUserKey } from '../../src/platform/probes.js';
import { setSetting } from '../../src/platform/settings.js';
import { columnOf } from '../../src/resources/engine/query.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { readWorkbook, schoolIdsOf, unique, userIdOf } from '../resources/fixtures.js';

type Row = Record<string, unknown>;

let t: TestApp;
let admin: string;
let agent1: string;
let agent1Schools: number[];
let agent2Schools: number[];

beforeAll(async () => {
  t = await createTestApp();
  [admin, agent1] = await Promise.all([t.loginAs('admin'), t.loginAs('agent1')]);
  [agent1Schools, agent2Schools] = await Promise.all([schoolIdsOf(t, 'agent1'), schoolIdsOf(t, 'agent2')]);
});
afterAll(() => t.close());

const post = (token: string, verb: string, payload: unknown) => t.injectAs(token, { method: 'POST', url: `/api/Terminal/${verb}`, payload: payload as Row });

async function newDevice(schoolId: number | null): Promise<number> {
  const [device] = await t.db.insert(devices).values({ serialNumber: `G3T${unique()}`, deviceClassCode: 'GATE-G3', schoolId }).returning({ id: devices.id });
  return Number(device!.id);
}

async function addTerminal(schoolId: number): Promise<number> {
  const response = await post(admin, 'Add', { deviceId: await newDevice(schoolId) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.id as number;
}

describe('Terminal (equipmentManage)', () => {
  it('registers a device as a terminal in its school, named by its serial number', async () => {
    const deviceId = await newDevice(agent1Schools[0]!);
    const response = await post(admin, 'Add', { deviceId, remark: '东门' });
    expect(response.statusCode, response.body).toBe(200);
    const row = (await t.injectAs(admin, { method: 'GET', url: `/api/Terminal/Get?id=${response.json().data.id}` })).json().data;
    expect(row).toMatchObject({ deviceId, schoolId: agent1Schools[0], enabled: true, online: false, secretIssuedAt: null, remark: '东门' });
    expect(row.deviceIdLabel).toMatch(/^G3T/);
    expect(row.serialNumber).toBe(row.deviceIdLabel);
    // One terminal per device.
    expect((await post(admin, 'Add', { deviceId })).statusCode).toBe(400);
  });

  it('follows its device when the device moves school or is renumbered, whoever changes it', async () => {
    const id = await addTerminal(agent1Schools[0]!);
    const terminalRow = async () => (await t.injectAs(admin, { method: 'GET', url: `/api/Terminal/Get?id=${id}` })).json().data as Row;
    const deviceId = Number((await terminalRow()).deviceId);
    const device = (await t.injectAs(admin, { method: 'GET', url: `/api/Device/Get?id=${deviceId}` })).json().data as Row;
    const serialNumber = `G3M${unique()}`;
    const moved = await t.injectAs(admin, {
      method: 'POST',
      url: '/api/Device/Update',
      payload: { id: deviceId, version: device.version as number, serialNumber, deviceClassCode: device.deviceClassCode as string, schoolId: agent2Schools[0]! },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await terminalRow()).toMatchObject({ schoolId: agent2Schools[0], serialNumber });
    // The old school's agent no longer reaches it; the new one's does.
    expect((await t.injectAs(agent1, { method: 'GET', url: `/api/Terminal/Get?id=${id}` })).statusCode).toBe(404);
    // Taken out of every school (back to stock), it belongs to none: the intake then refuses it.
    await t.db.update(devices).set({ schoolId: null }).where(eq(columnOf(devices, 'id'), deviceId));
    expect((await terminalRow()).schoolId).toBeNull();
  });

  it('refuses a device that has no school yet, on its field', async () => {
    const response = await post(admin, 'Add', { deviceId: await newDevice(null) });
    expect(response.statusCode).toBe(400);
    expect(response.json().data.errors).toEqual([expect.objectContaining({ path: 'deviceId', key: 'validation.followedEmpty' })]);
  });

  it('issues a secret once: answered by IssueSecret only, kept sealed, never in Get, Search, Export or the operation log', async () => {
    const id = await addTerminal(agent1Schools[0]!);
    const issued = await post(admin, 'IssueSecret', { id });
    expect(issued.statusCode, issued.body).toBe(200);
    const { secret } = issued.json().data as { secret: string };
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const [stored] = await t.db.select({ sealed: columnOf(terminals, 'secretSealed') }).from(terminals).where(eq(columnOf(terminals, 'id'), id));
    expect(String(stored!.sealed)).not.toContain(secret);
    expect((await t.app.terminalSecrets()).unseal(String(stored!.sealed))).toBe(secret);

    const get = await t.injectAs(admin, { method: 'GET', url: `/api/Terminal/Get?id=${id}` });
    const search = await post(admin, 'Search', { pageSize: 100 });
    const exported = await t.injectAs(admin, { method: 'GET', url: '/api/Terminal/Export?maxCount=1000' });
    const sheet = await readWorkbook(exported);
    const cells = sheet.getSheetValues().flat().map(String).join(' ');
    const logged = JSON.stringify(await t.db.select().from(operationLog).where(eq(operationLog.action, 'IssueSecret')));
    for (const text of [get.body, search.body, cells, logged]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(String(stored!.sealed));
    }
    expect(get.json().data.secretIssuedAt).toBe(t.clock.now().toISOString());
  });

  it('rotates a secret: the new one replaces the old at once', async () => {
    const id = await addTerminal(agent1Schools[0]!);
    const first = (await post(admin, 'IssueSecret', { id })).json().data.secret as string;
    const second = (await post(admin, 'IssueSecret', { id })).json().data.secret as string;
    expect(second).not.toBe(first);
    const [stored] = await t.db.select({ sealed: columnOf(terminals, 'secretSealed') }).from(terminals).where(eq(columnOf(terminals, 'id'), id));
    expect((await t.app.terminalSecrets()).unseal(String(stored!.sealed))).toBe(second);
  });

  it("keeps an agent from another agent's terminals: not listed, no secret issued", async () => {
    const foreign = await addTerminal(agent2Schools[0]!);
    const rows = (await post(agent1, 'Search', { pageSize: 100 })).json().data.items as Row[];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => agent1Schools.includes(Number(row.schoolId)))).toBe(true);
    expect((await post(agent1, 'IssueSecret', { id: foreign })).statusCode).toBe(404);
    const [stored] = await t.db.select({ sealed: columnOf(terminals, 'secretSealed') }).from(terminals).where(eq(columnOf(terminals, 'id'), foreign));
    expect(stored!.sealed).toBeNull();
  });

  it('answers online from the last activity at the time of the request, and hides offline terminals without canShowOffline', async () => {
    const online = await addTerminal(agent1Schools[0]!);
    const offline = await addTerminal(agent1Schools[0]!);
    const now = t.clock.now().getTime();
    await t.db.update(terminals).set({ offlineAt: new Date(now + 60_000) }).where(eq(columnOf(terminals, 'id'), online));
    await t.db.update(terminals).set({ offlineAt: new Date(now - 1) }).where(eq(columnOf(terminals, 'id'), offline));

    const ids = async (token: string, filters: Row = {}) => ((await post(token, 'Search', { pageSize: 200, ...filters })).json().data.items as Row[]).map((row) => row.id);
    expect(await ids(agent1, { online: true })).toContain(online);
    expect(await ids(agent1, { online: true })).not.toContain(offline);
    expect(await ids(agent1, { online: false })).toContain(offline);

    await setSetting(t.db, probesUserKey(await userIdOf(t, 'agent1')), { canShowOffline: false });
    try {
      const token = await t.loginAs('agent1');
      const visible = await ids(token);
      expect(visible).toContain(online);
      expect(visible).not.toContain(offline);
      expect((await t.injectAs(token, { method: 'GET', url: `/api/Terminal/Get?id=${offline}` })).statusCode).toBe(404);
      // A minute later the online one has missed its heartbeats too.
      t.clock.advance(61_000);
      expect(await ids(token)).not.toContain(online);
    } finally {
      await setSetting(t.db, probesUserKey(await userIdOf(t, 'agent1')), {});
    }
  });
});
