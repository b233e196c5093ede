import { DeviceStatistics, WarehouseStatistics, defineReport, frameOf } from '@campus/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probesUserKey } from '../../src/platform/probes.js';
import { setSetting } from '../../src/platform/settings.js';
import { registerReportRoutes } from '../../src/reports/routes.js';
import { defineReportSource } from '../../src/reports/source.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { grantEverything, grantReadOnly, readWorkbook, unique, userIdOf } from '../resources/fixtures.js';

/** A small report with a money measure: licence prices of the product models, by type. */
const LicencePrices = defineReport({
  name: 'TestLicencePrices',
  label: { zh: '授权价格', en: 'Licence prices' },
  views: [{ frame: 'singleProManage' }],
  filters: {},
  dimensions: { type: { kind: 'text', label: { zh: '类型', en: 'Type' } } },
  measures: { models: { kind: 'count', label: { zh: '单品数', en: 'Models' } }, price: { kind: 'money', label: { zh: '价格', en: 'Price' } } },
  chart: { type: 'table', x: 'type', series: 'measures', measures: ['models', 'price'] },
  defaultSort: { field: 'type', order: 'asc' },
  scope: { via: 'global' },
});

let t: TestApp;
let admin: string;
let agent1: string;
let agent1Id: number;

beforeAll(async () => {
  t = await createTestApp({
    extend: (app) => {
      const licencePrices = defineReportSource(LicencePrices, {
        grouped: () => sql`select type::text as "type", count(*)::int as "models", coalesce(sum(license_price1), 0)::bigint as "price" from device_classes group by type`,
      });
      registerReportRoutes(app, licencePrices);
    },
  });
  [admin, agent1] = await Promise.all([t.loginAs('admin'), t.loginAs('agent1')]);
  agent1Id = await userIdOf(t, 'agent1');
});
afterAll(() => t.close());

const search = (token: string, report: string, body: Record<string, unknown> = {}) =>
  t.injectAs(token, { method: 'POST', url: `/api/${report}/Search`, payload: { pageIndex: 1, pageSize: 200, ...body } });
const dataOf = (response: { statusCode: number; body: string; json(): { data: unknown } }) => {
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as { items: Record<string, unknown>[]; total: number; totals: Record<string, number> };
};
const count = async (query: ReturnType<typeof sql>) => Number(((await t.db.execute(query)) as unknown as { rows: { n: number }[] }).rows[0]!.n);
const inAgentScope = (agentId: number) => sql`school_id in (select id from schools where agent_id = ${agentId})`;

describe('POST /api/DeviceStatistics/Search', () => {
  it('answers totals equal to a direct count of the devices, per state and per model', async () => {
    const answer = dataOf(await search(admin, 'DeviceStatistics'));
    expect(answer.totals.total).toBe(await count(sql`select count(*)::int as n from devices`));
    expect(answer.totals.installed).toBe(await count(sql`select count(*)::int as n from devices where state = 3`));
    expect(answer.totals.inStock).toBe(await count(sql`select count(*)::int as n from devices where state = 1`));
    const gate = answer.items.find((row) => row.deviceClassCode === 'GATE-G3')!;
    expect(gate.deviceClassCodeLabel).toBe('人脸识别闸机 G3');
    expect(gate.total).toBe(await count(sql`select count(*)::int as n from devices where device_class_code = 'GATE-G3'`));
    expect(answer.total).toBe(answer.items.length);
    expect(answer.items.reduce((sum, row) => sum + Number(row.total), 0)).toBe(answer.totals.total);
  });

  it('gives an agent only the devices of its own schools', async () => {
    const answer = dataOf(await search(agent1, 'DeviceStatistics'));
    expect(answer.totals.total).toBe(await count(sql`select count(*)::int as n from devices where ${inAgentScope(agent1Id)}`));
    expect(answer.totals.inStock).toBe(0);
  });

  it('filters by model type, agent and province, and pages the groups', async () => {
    const nvr = dataOf(await search(admin, 'DeviceStatistics', { deviceType: 5 }));
    expect(nvr.items.map((row) => row.deviceClassCode)).toEqual(['NVR-N16']);
    const byAgent = dataOf(await search(admin, 'DeviceStatistics', { agentId: agent1Id }));
    expect(byAgent.totals).toEqual(dataOf(await search(agent1, 'DeviceStatistics')).totals);
    const zhejiang = dataOf(await search(admin, 'DeviceStatistics', { province: '浙江省' }));
    expect(zhejiang.totals.total).toBe(await count(sql`select count(*)::int as n from devices where school_id in (select id from schools where province = '浙江省')`));
    const firstPage = dataOf(await search(admin, 'DeviceStatistics', { pageSize: 1, sortField: 'deviceClassCode', sortOrder: 'asc' }));
    const secondPage = dataOf(await search(admin, 'DeviceStatistics', { pageSize: 1, pageIndex: 2, sortField: 'deviceClassCode', sortOrder: 'asc' }));
    expect(firstPage.items).toHaveLength(1);
    expect(String(secondPage.items[0]!.deviceClassCode) > String(firstPage.items[0]!.deviceClassCode)).toBe(true);
    expect(secondPage.totals).toEqual(firstPage.totals);
    const pastTheEnd = dataOf(await search(admin, 'DeviceStatistics', { pageSize: 50, pageIndex: 9 }));
    expect(pastTheEnd.items).toEqual([]);
    expect(pastTheEnd.totals).toEqual(firstPage.totals);
  });

  it('follows every write to devices: add, ship, install, delete', async () => {
    const before = dataOf(await search(admin, 'DeviceStatistics')).totals;
    const serialNumber = `N16T${unique()}`;
    const added = await t.injectAs(admin, { method: 'POST', url: '/api/Device/Add', payload: { serialNumber, deviceClassCode: 'NVR-N16', state: 1 } });
    expect(added.statusCode, added.body).toBe(200);
    const { id } = added.json().data as { id: number };
    expect(dataOf(await search(admin, 'DeviceStatistics')).totals.inStock).toBe(before.inStock! + 1);
    const school = await count(sql`select min(id)::int as n from schools where agent_id = ${agent1Id}`);
    const shipped = await t.injectAs(admin, { method: 'POST', url: '/api/Device/Update', payload: { id, version: 1, state: 3, schoolId: school } });
    expect(shipped.statusCode, shipped.body).toBe(200);
    const [stamps] = ((await t.db.execute(sql`select shipped_at, installed_at from devices where id = ${id}`)) as unknown as { rows: { shipped_at: unknown; installed_at: unknown }[] }).rows;
    expect(stamps!.shipped_at).not.toBeNull();
    expect(stamps!.installed_at).not.toBeNull();
    const after = dataOf(await search(admin, 'DeviceStatistics')).totals;
    expect(after.inStock).toBe(before.inStock);
    expect(after.installed).toBe(before.installed! + 1);
    expect(dataOf(await search(agent1, 'DeviceStatistics')).totals.total).toBe(await count(sql`select count(*)::int as n from devices where ${inAgentScope(agent1Id)}`));
    expect((await t.injectAs(admin, { method: 'POST', url: '/api/Device/BatchDelete', payload: [id] })).statusCode).toBe(200);
    expect(dataOf(await search(admin, 'DeviceStatistics')).totals).toEqual(before);
  });

  it('answers 400 for bad input and 403 without the frame', async () => {
    expect((await search(admin, 'DeviceStatistics', { deviceType: 77 })).statusCode).toBe(400);
    expect((await search(admin, 'DeviceStatistics', { sortField: 'nope' })).statusCode).toBe(400);
    expect((await search(admin, 'DeviceStatistics', { colour: 'red' })).statusCode).toBe(400);
    expect((await search(admin, 'DeviceStatistics', { pageSize: 0 })).statusCode).toBe(400);
    const external = await t.loginAs('external1');
    const refused = await search(external, 'DeviceStatistics');
    expect(refused.statusCode).toBe(403);
    expect((await t.injectAs(external, { method: 'GET', url: '/api/DeviceStatistics/GetSummary' })).statusCode).toBe(403);
  });
});

describe('POST /api/WarehouseStatistics/Search', () => {
  const year = { dayFrom: '2026-01-01', dayTo: '2026-12-31' };
  const dayOf = (column: string) => sql.raw(`(${column} at time zone 'Asia/Shanghai')::date`);
  const inYear = (column: string) => sql`${dayOf(column)} between ${year.dayFrom} and ${year.dayTo}`;

  it('counts devices stocked, shipped and installed in the range, as direct counts do', async () => {
    const answer = dataOf(await search(admin, 'WarehouseStatistics', year));
    expect(answer.totals.stocked).toBe(await count(sql`select count(*)::int as n from devices where ${inYear('created_at')}`));
    expect(answer.totals.shipped).toBe(await count(sql`select count(*)::int as n from devices where ${inYear('shipped_at')}`));
    expect(answer.totals.installed).toBe(await count(sql`select count(*)::int as n from devices where ${inYear('installed_at')}`));
    expect(answer.totals.installed).toBeGreaterThan(0);
    expect(answer.items.every((row) => /^2026-\d{2}-01$/.test(String(row.period)))).toBe(true);
  });

  it('gives the same totals at every grain, with periods starting on Mondays for weeks', async () => {
    const months = dataOf(await search(admin, 'WarehouseStatistics', { ...year, grain: 'month' }));
    const weeks = dataOf(await search(admin, 'WarehouseStatistics', { ...year, grain: 'week' }));
    const days = dataOf(await search(admin, 'WarehouseStatistics', { ...year, grain: 'day' }));
    expect(weeks.totals).toEqual(months.totals);
    expect(days.totals).toEqual(months.totals);
    expect(weeks.items.every((row) => new Date(`${String(row.period)}T00:00:00Z`).getUTCDay() === 1)).toBe(true);
    expect(days.total).toBeGreaterThan(months.total);
  });

  it('keeps an agent to its schools and filters by model', async () => {
    const answer = dataOf(await search(agent1, 'WarehouseStatistics', year));
    expect(answer.totals.installed).toBe(await count(sql`select count(*)::int as n from devices where ${inAgentScope(agent1Id)} and ${inYear('installed_at')}`));
    expect(answer.items.every((row) => row.agentId === agent1Id)).toBe(true);
    const nvr = dataOf(await search(admin, 'WarehouseStatistics', { ...year, deviceClassCode: 'NVR-N16' }));
    expect(nvr.totals.shipped).toBe(await count(sql`select count(*)::int as n from devices where device_class_code = 'NVR-N16' and ${inYear('shipped_at')}`));
  });

  it('counts each agent as a direct count over its schools does, with stock under no agent', async () => {
    const answer = dataOf(await search(admin, 'WarehouseStatistics', { ...year, pageSize: 200 }));
    const perAgent = new Map<unknown, number>();
    for (const row of answer.items) perAgent.set(row.agentId, (perAgent.get(row.agentId) ?? 0) + Number(row.stocked));
    expect(perAgent.get(agent1Id)).toBe(await count(sql`select count(*)::int as n from devices where ${inAgentScope(agent1Id)} and ${inYear('created_at')}`));
    expect(perAgent.get(null) ?? 0).toBe(
      await count(sql`select count(*)::int as n from devices d left join schools s on s.id = d.school_id where s.agent_id is null and ${inYear('d.created_at')}`),
    );
    const byAgent = dataOf(await search(admin, 'WarehouseStatistics', { ...year, agentId: agent1Id }));
    expect(byAgent.totals).toEqual(dataOf(await search(agent1, 'WarehouseStatistics', year)).totals);
    const oneSchool = await count(sql`select min(id)::int as n from schools where agent_id = ${agent1Id}`);
    const bySchool = dataOf(await search(admin, 'WarehouseStatistics', { ...year, schoolId: oneSchool }));
    expect(bySchool.totals.stocked).toBe(await count(sql`select count(*)::int as n from devices where school_id = ${oneSchool} and ${inYear('created_at')}`));
  });

  it("moves a school's devices to its new agent when the school changes agent", async () => {
    const agent2Id = await userIdOf(t, 'agent2');
    // A school of agent1 with a device installed this year, so every measure moves.
    const school = await count(sql`select max(id)::int as n from schools where agent_id = ${agent1Id}`);
    const added = await t.injectAs(admin, { method: 'POST', url: '/api/Device/Add', payload: { serialNumber: `G3M${unique()}`, deviceClassCode: 'GATE-G3', schoolId: school, state: 3 } });
    expect(added.statusCode, added.body).toBe(200);
    const ofSchool = await count(sql`select count(*)::int as n from devices where school_id = ${school} and ${inYear('installed_at')}`);
    const totalsOf = async (agentId: number) => dataOf(await search(admin, 'WarehouseStatistics', { ...year, agentId })).totals;
    const [before1, before2] = [await totalsOf(agent1Id), await totalsOf(agent2Id)];
    const companyBefore = dataOf(await search(admin, 'WarehouseStatistics', year)).totals;
    // Written straight to the table: the rollup follows whoever changes the school, not only the engine.
    await t.db.execute(sql`update schools set agent_id = ${agent2Id} where id = ${school}`);
    try {
      const [after1, after2] = [await totalsOf(agent1Id), await totalsOf(agent2Id)];
      expect(after1.installed).toBe(before1.installed! - ofSchool);
      expect(after2.installed).toBe(before2.installed! + ofSchool);
      expect(after1.stocked! + after2.stocked!).toBe(before1.stocked! + before2.stocked!);
      expect(dataOf(await search(admin, 'WarehouseStatistics', year)).totals).toEqual(companyBefore);
      expect(dataOf(await search(agent1, 'WarehouseStatistics', year)).totals).toEqual(after1);
      for (const [agentId, totals] of [[agent1Id, after1], [agent2Id, after2]] as const) {
        expect(totals.installed).toBe(await count(sql`select count(*)::int as n from devices where ${inAgentScope(agentId)} and ${inYear('installed_at')}`));
        expect(totals.shipped).toBe(await count(sql`select count(*)::int as n from devices where ${inAgentScope(agentId)} and ${inYear('shipped_at')}`));
      }
      // An edit that keeps the agent moves nothing.
      await t.db.execute(sql`update schools set agent_id = agent_id where id = ${school}`);
      expect(await totalsOf(agent2Id)).toEqual(after2);
    } finally {
      await t.db.execute(sql`update schools set agent_id = ${agent1Id} where id = ${school}`);
    }
    expect(await totalsOf(agent1Id)).toEqual(before1);
    expect(await totalsOf(agent2Id)).toEqual(before2);
  });

  // Two connections are needed: PGlite has one, so this runs on PostgreSQL only.
  it.skipIf(process.env.TEST_DB !== 'postgres')('counts a device written while its school changes agent under the new agent', async () => {
    const agent2Id = await userIdOf(t, 'agent2');
    const school = await count(sql`select max(id)::int as n from schools where agent_id = ${agent1Id}`);
    let released!: () => void;
    const hold = new Promise<void>((resolve) => (released = resolve));
    let moved!: () => void;
    const hasMoved = new Promise<void>((resolve) => (moved = resolve));
    // The change of agent stays uncommitted while a device of the school is written beside it.
    const change = t.db.transaction(async (tx) => {
      await tx.execute(sql`update schools set agent_id = ${agent2Id} where id = ${school}`);
      moved();
      await hold;
    });
    await hasMoved;
    const write = t.db.execute(sql`insert into devices (serial_number, device_class_code, school_id, state) values (${`G3C${unique()}`}, 'GATE-G3', ${school}, 3)`);
    // The device write waits for the school it reads FOR SHARE; let it try before the change commits.
    await new Promise((resolve) => setTimeout(resolve, 300));
    released();
    await Promise.all([change, write]);
    try {
      for (const agentId of [agent1Id, agent2Id]) {
        const totals = dataOf(await search(admin, 'WarehouseStatistics', { ...year, agentId })).totals;
        expect(totals.installed).toBe(await count(sql`select count(*)::int as n from devices where ${inAgentScope(agentId)} and ${inYear('installed_at')}`));
        expect(totals.stocked).toBe(await count(sql`select count(*)::int as n from devices where ${inAgentScope(agentId)} and ${inYear('created_at')}`));
      }
    } finally {
      await t.db.execute(sql`update schools set agent_id = ${agent1Id} where id = ${school}`);
    }
  });

  it('answers 400 for a range its grain cannot cover, a reversed range or an unknown grain', async () => {
    expect((await search(admin, 'WarehouseStatistics', { dayFrom: '2024-01-01', dayTo: '2026-01-01', grain: 'day' })).statusCode).toBe(400);
    expect((await search(admin, 'WarehouseStatistics', { dayFrom: '2024-01-01', grain: 'day' })).statusCode).toBe(400);
    expect((await search(admin, 'WarehouseStatistics', { dayFrom: '2026-05-01', dayTo: '2026-04-01' })).statusCode).toBe(400);
    expect((await search(admin, 'WarehouseStatistics', { grain: 'year' })).statusCode).toBe(400);
    expect((await search(admin, 'WarehouseStatistics', { dayFrom: '2026-02-30' })).statusCode).toBe(400);
  });
});

describe('GET /api/{Report}/GetSummary', () => {
  it('answers every group of the requested dimensions, with the Search totals', async () => {
    const query = 'dayFrom=2026-01-01&dayTo=2026-12-31';
    const response = await t.injectAs(admin, { method: 'GET', url: `/api/WarehouseStatistics/GetSummary?${query}&groupBy=period` });
    const summary = dataOf(response);
    expect(summary.items.every((row) => !('agentId' in row))).toBe(true);
    expect(new Set(summary.items.map((row) => row.period)).size).toBe(summary.items.length);
    expect(summary.totals).toEqual(dataOf(await search(admin, 'WarehouseStatistics', { dayFrom: '2026-01-01', dayTo: '2026-12-31' })).totals);
    expect((await t.injectAs(admin, { method: 'GET', url: `/api/WarehouseStatistics/GetSummary?groupBy=colour` })).statusCode).toBe(400);
  });
});

describe('GET /api/{Report}/Export', () => {
  it('writes the header in the caller language and a totals row', async () => {
    const sheet = await readWorkbook(await t.injectAs(admin, { method: 'GET', url: '/api/DeviceStatistics/Export?lang=en' }));
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual([DeviceStatistics.dimensions.deviceClassCode.label.en, ...Object.values(DeviceStatistics.measures).map((m) => m.label.en)]);
    const last = (sheet.getRow(sheet.rowCount).values as unknown[]).slice(1);
    const totals = dataOf(await search(admin, 'DeviceStatistics')).totals;
    expect(last).toEqual(['Total', ...Object.keys(DeviceStatistics.measures).map((name) => totals[name])]);
    const zh = await readWorkbook(await t.injectAs(admin, { method: 'GET', url: '/api/WarehouseStatistics/Export?dayFrom=2026-01-01&dayTo=2026-12-31', headers: { 'accept-language': 'zh-CN' } }));
    expect((zh.getRow(1).values as unknown[])[1]).toBe(WarehouseStatistics.dimensions.period.label.zh);
    // A month is a date cell (its first day) shown as yyyy-mm.
    const month = zh.getRow(2).getCell(1);
    expect(month.value).toBeInstanceOf(Date);
    expect((month.value as Date).toISOString()).toMatch(/^2026-\d{2}-01T00:00:00/);
    expect(month.numFmt).toBe('yyyy-mm');
    expect((zh.getRow(zh.rowCount).values as unknown[])[1]).toBe('合计');
  });

  it('needs the export button and refuses bad filters with an envelope', async () => {
    await grantReadOnly(t, 'agent2', [frameOf('productStatistics').fixedId]);
    const agent2 = await t.loginAs('agent2');
    expect((await search(agent2, 'DeviceStatistics')).statusCode).toBe(200);
    expect((await t.injectAs(agent2, { method: 'GET', url: '/api/DeviceStatistics/Export' })).statusCode).toBe(403);
    const bad = await t.injectAs(admin, { method: 'GET', url: '/api/WarehouseStatistics/Export?grain=day&dayFrom=2020-01-01' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe(400);
  });
});

describe('money measures', () => {
  it('are removed from answers and exports where hideAmountColumns holds', async () => {
    const shown = dataOf(await search(admin, 'TestLicencePrices'));
    expect(shown.totals.price).toBe(await count(sql`select sum(license_price1)::int as n from device_classes`));
    await grantEverything(t, 'sales2');
    const sales2 = await t.loginAs('sales2');
    await setSetting(t.db, probesUserKey(await userIdOf(t, 'sales2')), { hideAmountColumns: true });
    const hidden = dataOf(await search(sales2, 'TestLicencePrices'));
    expect(hidden.totals).toEqual({ models: shown.totals.models });
    expect(hidden.items.every((row) => !('price' in row))).toBe(true);
    expect((await search(sales2, 'TestLicencePrices', { sortField: 'price' })).statusCode).toBe(200);
    const sheet = await readWorkbook(await t.injectAs(sales2, { method: 'GET', url: '/api/TestLicencePrices/Export?lang=en' }));
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(['Type', 'Models']);
  });
});
