/**
 * The field rules a declaration states (`fixed`, `requiredWhen`, a date's `notBefore`/`maxDays`, a
 * `follows` that refuses an empty source, a `defaultFrom`, a lines field's `rules`), enforced by the engine for every family that declares them.
 */
import { FUND_ACCOUNT_AGENT, FUND_ACCOUNT_SCHOOL, POSTER_AUDIENCE_AREA, POSTER_AUDIENCE_SCHOOLS, POSTER_KIND_APP } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices } from '../../src/db/schema/index.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { schoolIdsOf, schoolLike, unique, userIdOf } from './fixtures.js';

type Row = Record<string, unknown>;

let t: TestApp;
let admin: string;
let agent1Schools: number[];

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.loginAs('admin');
  agent1Schools = await schoolIdsOf(t, 'agent1');
});
afterAll(() => t.close());

const call = (family: string, verb: string, payload: Row, view?: string) =>
  t.injectAs(admin, { method: 'POST', url: `/api/${family}/${verb}${view ? `?view=${view}` : ''}`, payload });
const get = async (family: string, id: number) => (await t.injectAs(admin, { method: 'GET', url: `/api/${family}/Get?id=${id}` })).json().data as Row;
const errorsOf = (response: Awaited<ReturnType<typeof call>>) => response.json().data?.errors as { path: string; key: string; params?: Row }[];

describe('declared field rules', () => {
  it('fixed: a fund account keeps its type and owner; sending the stored value again is no change', async () => {
    const schoolId = await schoolLike(t, agent1Schools[0]!);
    const added = await call('AgentFund', 'Add', { name: `账户${unique()}`, accountType: FUND_ACCOUNT_SCHOOL, schoolId });
    expect(added.statusCode, added.body).toBe(200);
    const id = added.json().data.id as number;
    const row = await get('AgentFund', id);
    const moved = await call('AgentFund', 'Update', { id, version: row.version, accountType: FUND_ACCOUNT_AGENT, schoolId: agent1Schools[1] });
    expect(moved.statusCode).toBe(400);
    expect(errorsOf(moved).map((e) => [e.path, e.key])).toEqual([
      ['accountType', 'validation.fixed'],
      ['schoolId', 'validation.fixed'],
    ]);
    const same = await call('AgentFund', 'Update', { id, version: row.version, accountType: FUND_ACCOUNT_SCHOOL, schoolId, remark: '改备注' });
    expect(same.statusCode, same.body).toBe(200);
  });

  it('requiredWhen: a school account needs its school and an agent account its agent, named by the type', async () => {
    const school = await call('AgentFund', 'Add', { name: `账户${unique()}`, accountType: FUND_ACCOUNT_SCHOOL });
    expect(school.statusCode).toBe(400);
    expect(errorsOf(school)).toEqual([expect.objectContaining({ path: 'schoolId', key: 'validation.requiredWhen', params: expect.objectContaining({ value: { zh: '学校', en: 'School' } }) })]);
    const agent = await call('AgentFund', 'Add', { name: `账户${unique()}`, accountType: FUND_ACCOUNT_AGENT });
    expect(errorsOf(agent)).toEqual([expect.objectContaining({ path: 'agentId', key: 'validation.requiredWhen' })]);
    const named = await call('AgentFund', 'Add', { name: `账户${unique()}`, accountType: FUND_ACCOUNT_SCHOOL, schoolId: await schoolLike(t, agent1Schools[0]!) });
    expect(named.statusCode, named.body).toBe(200);
  });

  it("requiredWhen on a link: chosen schools are needed for that audience, and an Update that leaves them out keeps them", async () => {
    const base = { kind: POSTER_KIND_APP, title: `海报${unique()}`, image: 'https://example.com/p.png', displaySeconds: 5, startDate: '2026-12-01', endDate: '2026-12-31' };
    const noSchools = await call('Poster', 'Add', { ...base, audience: POSTER_AUDIENCE_SCHOOLS }, 'appImage');
    expect(errorsOf(noSchools)).toEqual([expect.objectContaining({ path: 'schoolIds', key: 'validation.requiredWhen' })]);
    const noProvince = await call('Poster', 'Add', { ...base, audience: POSTER_AUDIENCE_AREA }, 'appImage');
    expect(errorsOf(noProvince)).toEqual([expect.objectContaining({ path: 'province', key: 'validation.requiredWhen' })]);
    const added = await call('Poster', 'Add', { ...base, audience: POSTER_AUDIENCE_SCHOOLS, schoolIds: [agent1Schools[0]] }, 'appImage');
    expect(added.statusCode, added.body).toBe(200);
    const id = added.json().data.id as number;
    const kept = await call('Poster', 'Update', { id, version: (await get('Poster', id)).version, title: `改名${unique()}` }, 'appImage');
    expect(kept.statusCode, kept.body).toBe(200);
    // Switching to an area without naming one is refused; the stored schools do not stand in for it.
    const area = await call('Poster', 'Update', { id, version: (await get('Poster', id)).version, audience: POSTER_AUDIENCE_AREA }, 'appImage');
    expect(errorsOf(area)).toEqual([expect.objectContaining({ path: 'province', key: 'validation.requiredWhen' })]);
  });

  it('notBefore and maxDays: an end before its start, or a holiday longer than a year, is refused on the end', async () => {
    const add = (startDate: string, endDate: string) => call('SchoolHoliday', 'Add', { schoolId: agent1Schools[0], name: `假${unique()}`, kind: 1, startDate, endDate }, 'holidayManage');
    expect(errorsOf(await add('2026-12-10', '2026-12-01'))).toEqual([expect.objectContaining({ path: 'endDate', key: 'validation.notBefore' })]);
    expect(errorsOf(await add('2026-01-01', '2027-01-02'))).toEqual([expect.objectContaining({ path: 'endDate', key: 'validation.spanTooLong', params: expect.objectContaining({ days: 366 }) })]);
    expect((await add('2026-01-01', '2027-01-01')).statusCode).toBe(200);
    // An Update moving only the start past the stored end is checked against the stored end.
    const added = await add('2026-12-01', '2026-12-05');
    const id = added.json().data.id as number;
    const moved = await call('SchoolHoliday', 'Update', { id, version: (await get('SchoolHoliday', id)).version, startDate: '2026-12-09' }, 'holidayManage');
    expect(errorsOf(moved)).toEqual([expect.objectContaining({ path: 'endDate', key: 'validation.notBefore' })]);
  });

  it('follows with refuseEmpty: a ticket for a device still in stock is refused on the device; the school comes from the device', async () => {
    const [inStock] = await t.db.insert(devices).values({ serialNumber: `G3R${unique()}`, deviceClassCode: 'GATE-G3', schoolId: null }).returning({ id: devices.id });
    const refused = await call('MaintenanceTicket', 'Add', { deviceId: inStock!.id, title: '不亮', priority: 'normal' });
    expect(errorsOf(refused)).toEqual([expect.objectContaining({ path: 'deviceId', key: 'validation.followedEmpty' })]);
    const [installed] = await t.db.insert(devices).values({ serialNumber: `G3R${unique()}`, deviceClassCode: 'GATE-G3', schoolId: agent1Schools[1] }).returning({ id: devices.id });
    const added = await call('MaintenanceTicket', 'Add', { deviceId: installed!.id, title: '不亮', priority: 'normal' });
    expect(added.statusCode, added.body).toBe(200);
    expect(await get('MaintenanceTicket', added.json().data.id as number)).toMatchObject({ schoolId: agent1Schools[1] });
  });

  it('lines rules: every split rule adds up to 100 and names its own effective date, on the line field; lines left out are not checked', async () => {
    const schoolId = await schoolLike(t, agent1Schools[0]!);
    const rule = (effectiveFrom: string, companyPercent: number) => ({ effectiveFrom, companyPercent, agentPercent: 30, schoolPercent: 30 });
    const refused = await call('ServiceConfig', 'Add', { schoolId, mode: 1, splitRules: [rule('2026-01-01', 40), rule('2026-01-01', 45), rule('2026-02-01', 40)] });
    expect(refused.statusCode).toBe(400);
    expect(errorsOf(refused).map((e) => [e.path, e.key, e.params])).toEqual([
      ['splitRules.1.companyPercent', 'finance.splitNot100', { sum: 105 }],
      ['splitRules.1.effectiveFrom', 'finance.splitDateRepeated', { value: '2026-01-01' }],
    ]);
    const added = await call('ServiceConfig', 'Add', { schoolId, mode: 1, splitRules: [rule('2026-01-01', 40), rule('2026-02-01', 40)] });
    expect(added.statusCode, added.body).toBe(200);
    const id = added.json().data.id as number;
    const renamed = await call('ServiceConfig', 'Update', { id, version: (await get('ServiceConfig', id)).version, tryDays: 7 });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((await get('ServiceConfig', id)).splitRules).toHaveLength(2);
  });

  it("defaultFrom: an order left without an agent takes its school's, on Add only; an agent named is kept", async () => {
    const order = (agentId?: number) => ({ schoolId: agent1Schools[0], agentId, consigneeName: '李老师', consigneePhone: '13900003333', deliveryAddress: '总务处', items: [{ deviceClassCode: 'GATE-G3', quantity: 1 }] });
    const [agent1, agent2] = [await userIdOf(t, 'agent1'), await userIdOf(t, 'agent2')];
    const defaulted = await call('Order', 'Add', order(), 'orderManage');
    expect(defaulted.statusCode, defaulted.body).toBe(200);
    const id = defaulted.json().data.id as number;
    expect((await get('Order', id)).agentId).toBe(agent1);
    const named = await call('Order', 'Add', order(agent2), 'orderManage');
    expect((await get('Order', named.json().data.id as number)).agentId).toBe(agent2);
    const cleared = await call('Order', 'Update', { id, version: (await get('Order', id)).version, agentId: null }, 'orderManage');
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect((await get('Order', id)).agentId).toBeNull();
  });
});
