import { DEFAULT_HEARTBEAT_SECONDS, OFFLINE_AFTER_MISSED_HEARTBEATS } from '@campus/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { heartbeat, registerTerminal } from '../terminals/intake-support.js';
import { grantEverything, schoolIdsOf, unique } from './fixtures.js';

type Row = Record<string, unknown>;

let t: TestApp;
let agent1: string;
let agent1School: number;
let agent2School: number;

beforeAll(async () => {
  t = await createTestApp();
  await grantEverything(t, 'agent1');
  agent1 = await t.loginAs('agent1');
  [agent1School, agent2School] = [(await schoolIdsOf(t, 'agent1'))[0]!, (await schoolIdsOf(t, 'agent2'))[0]!];
});
afterAll(() => t.close());

const call = (verb: string, payload: unknown) => t.injectAs(agent1, { method: 'POST', url: `/api/Nvr/${verb}?view=nvrManage`, payload: payload as Row });
const get = async (id: number) => {
  const response = await t.injectAs(agent1, { method: 'GET', url: `/api/Nvr/Get?id=${id}&view=nvrManage` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as Row & { version: number; channels: Row[] };
};
const body = (extra: Row = {}) => ({
  schoolId: agent1School,
  name: '教学楼NVR',
  serialNumber: `NVR-T${unique()}`,
  ip: '10.1.2.3',
  port: 8000,
  userName: 'admin',
  password: 'Secret#1',
  channelCount: 4,
  channels: [
    { channelNo: 1, cameraName: '大门', cameraSerial: 'CAM-1', cameraModel: 'DS-2CD', enabled: true },
    { channelNo: 3, cameraName: '操场', enabled: false },
  ],
  ...extra,
});

describe('Nvr (nvrManage)', () => {
  it('stores an NVR with its channel lines, answers them with Get, and never answers the login password', async () => {
    const added = await call('Add', body());
    expect(added.statusCode, added.body).toBe(200);
    const id = added.json().data.id as number;
    const row = await get(id);
    expect(row.channels.map((line) => [line.channelNo, line.cameraName, line.enabled])).toEqual([
      [1, '大门', true],
      [3, '操场', false],
    ]);
    expect(row.online).toBe(false);
    expect(JSON.stringify(row)).not.toContain('Secret#1');
    expect(row).not.toHaveProperty('password');
    // Sealed, not hashed and not in clear: the server can read it back, a copy of the table cannot.
    const result = (await t.db.execute(sql`select password_sealed from nvrs where id = ${id}`)) as unknown as { rows: { password_sealed: string }[] };
    const [stored] = result.rows;
    expect(stored!.password_sealed).toMatch(/^v1\./);
    expect(stored!.password_sealed).not.toContain('Secret#1');
  });

  it('replaces the channel set on Update and keeps it when channels are left out', async () => {
    const id = (await call('Add', body())).json().data.id as number;
    const first = await get(id);
    const replaced = await call('Update', { id, version: first.version, channels: [{ channelNo: 2, cameraName: '走廊' }] });
    expect(replaced.statusCode, replaced.body).toBe(200);
    const second = await get(id);
    expect(second.channels.map((line) => line.channelNo)).toEqual([2]);
    const renamed = await call('Update', { id, version: second.version, name: '新名称' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((await get(id)).channels.map((line) => line.cameraName)).toEqual(['走廊']);
  });

  it('refuses a channel listed twice or beyond the channel count, on the line', async () => {
    const twice = await call('Add', body({ channels: [{ channelNo: 1, cameraName: 'a' }, { channelNo: 1, cameraName: 'b' }] }));
    expect(twice.statusCode).toBe(400);
    expect(twice.json().data.errors).toEqual([expect.objectContaining({ path: 'channels.1.channelNo', key: 'nvr.channelTwice', params: { value: '1' } })]);
    const beyond = await call('Add', body({ channelCount: 2, channels: [{ channelNo: 5, cameraName: 'a' }] }));
    expect(beyond.statusCode).toBe(400);
    expect(beyond.json().data.errors).toEqual([expect.objectContaining({ path: 'channels.0.channelNo', key: 'nvr.channelBeyondCount', params: { limit: 2 } })]);
    // An Update sending channels alone is bounded by the stored count.
    const id = (await call('Add', body())).json().data.id as number;
    const stored = await call('Update', { id, version: (await get(id)).version, channels: [{ channelNo: 5, cameraName: 'a' }] });
    expect(stored.json().data.errors).toEqual([expect.objectContaining({ path: 'channels.0.channelNo', key: 'nvr.channelBeyondCount', params: { limit: 4 } })]);
    const badIp = await call('Add', body({ ip: 'not an address' }));
    expect(badIp.statusCode).toBe(400);
    expect(badIp.json().data.errors[0].path).toBe('ip');
  });

  it("refuses an NVR in another agent's school", async () => {
    const response = await call('Add', body({ schoolId: agent2School }));
    expect([400, 404]).toContain(response.statusCode);
  });
});

describe('NVR online state, from what the school’s terminals reach', () => {
  it('lists the school’s NVRs in the heartbeat answer, goes online when a terminal of the school reports reaching it, and offline 3 intervals later', async () => {
    const admin = await t.loginAs('admin');
    const own = (await call('Add', body())).json().data.id as number;
    const foreign = await t.injectAs(admin, { method: 'POST', url: '/api/Nvr/Add?view=nvrManage', payload: body({ schoolId: agent2School }) });
    expect(foreign.statusCode, foreign.body).toBe(200);
    const foreignRow = (await t.injectAs(admin, { method: 'GET', url: `/api/Nvr/Get?id=${foreign.json().data.id}&view=nvrManage` })).json().data as Row;
    const terminal = await registerTerminal(t, admin, agent1School);
    const ownRow = await get(own);

    const first = (await heartbeat(t, terminal)).json().data;
    expect(first.nvrs).toContainEqual({ serialNumber: ownRow.serialNumber, ip: '10.1.2.3', port: 8000 });
    expect(first.nvrs.map((nvr: Row) => nvr.serialNumber)).not.toContain(foreignRow.serialNumber);

    const reported = await heartbeat(t, terminal, {
      nvrs: [
        { serialNumber: ownRow.serialNumber, reachable: true },
        // Another school's recorder: this device cannot vouch for it.
        { serialNumber: foreignRow.serialNumber, reachable: true },
      ],
    });
    expect(reported.statusCode, reported.body).toBe(200);
    expect((await get(own)).online).toBe(true);
    const online = await call('Search', { pageIndex: 1, pageSize: 50, online: true });
    expect(online.json().data.items.map((row: Row) => row.id)).toContain(own);
    const foreignAfter = (await t.injectAs(admin, { method: 'GET', url: `/api/Nvr/Get?id=${foreignRow.id}&view=nvrManage` })).json().data as Row;
    expect(foreignAfter).toMatchObject({ online: false, lastSeenAt: null });

    t.clock.advance(OFFLINE_AFTER_MISSED_HEARTBEATS * DEFAULT_HEARTBEAT_SECONDS * 1000 + 1000);
    expect((await get(own)).online).toBe(false);
    const offline = await call('Search', { pageIndex: 1, pageSize: 50, online: false });
    expect(offline.json().data.items.map((row: Row) => row.id)).toContain(own);
  });

  it('refuses a report that is not a list of serials and reachability, storing nothing', async () => {
    const admin = await t.loginAs('admin');
    const terminal = await registerTerminal(t, admin, agent1School);
    const refused = await heartbeat(t, terminal, { nvrs: [{ serialNumber: 'N1', reachable: 'yes' }] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().data.errors).toEqual([expect.objectContaining({ path: 'nvrs.0.reachable' })]);
  });
});
