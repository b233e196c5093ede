/** A link that carries values (`link.attributes`), run by the engine: SalesTeam.memberIds with each seller's level. */
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationLog } from '../../src/db/schema/logs.js';
import { users } from '../../src/db/schema/users.js';
import { md5Hex } from '../../src/platform/passwords.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { readWorkbook, unique } from './fixtures.js';

type Row = Record<string, unknown>;

let t: TestApp;
let admin: string;
let teamId: number;
let sellers: number[];

const call = (method: 'GET' | 'POST', url: string, payload?: Row) => t.injectAs(admin, { method, url, ...(payload ? { payload } : {}) });

async function added(family: string, body: Row): Promise<number> {
  const response = await call('POST', `/api/${family}/Add`, body);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.id;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.loginAs('admin');
  const name = `属性团队${unique()}`;
  teamId = await added('SalesTeam', { name });
  sellers = [];
  for (const label of ['甲', '乙', '丙']) {
    const n = unique();
    sellers.push(await added('CompanyUser', { loginName: `seller${n}`, password: md5Hex(`Seller@${n}`), name: `销售${label}${n}`, phoneNum: '13500001111', type: 'sales' }));
  }
});
afterAll(() => t.close());

const members = async () => (await call('GET', `/api/SalesTeam/GetMembers?id=${teamId}`)).json().data as Row[];
const versionOf = async () => (await call('GET', `/api/SalesTeam/Get?id=${teamId}`)).json().data.version as number;

describe('a link with attributes', () => {
  it('replaces the links with their values, reads them best first, bumps the version and logs before → after', async () => {
    const version = await versionOf();
    const saved = await call('POST', '/api/SalesTeam/SaveMembers', { id: teamId, version, members: [{ userId: sellers[0], level: 3 }, { userId: sellers[1], level: 1 }] });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data).toEqual({ id: teamId, version: version + 1 });
    expect((await members()).map((member) => [member.userId, member.level])).toEqual([
      [sellers[1], 1],
      [sellers[0], 3],
    ]);
    // The list answers the links in the same order, and the rule the family hangs on the write ran.
    const [row] = (await call('POST', '/api/SalesTeam/Search', { pageSize: 10, name: (await call('GET', `/api/SalesTeam/Get?id=${teamId}`)).json().data.name })).json().data.items;
    expect(row.memberIds).toEqual([sellers[1], sellers[0]]);
    const [seller] = await t.db.select({ salesTeamId: users.salesTeamId }).from(users).where(eq(users.id, sellers[0]!));
    expect(seller!.salesTeamId).toBe(teamId);

    expect((await call('POST', '/api/SalesTeam/SaveMembers', { id: teamId, members: [{ userId: sellers[1], level: 2 }] })).statusCode).toBe(200);
    const [entry] = await t.db
      .select()
      .from(operationLog)
      .where(and(eq(operationLog.family, 'SalesTeam'), eq(operationLog.action, 'members')))
      .orderBy(desc(operationLog.id))
      .limit(1);
    const [before, after] = (entry!.changes as { members: [Row[], Row[]] }).members;
    expect(before.map((member) => [member.userId, member.level])).toEqual([
      [sellers[1], 1],
      [sellers[0], 3],
    ]);
    expect(after.map((member) => [member.userId, member.level])).toEqual([[sellers[1], 2]]);
    const [leaver] = await t.db.select({ salesTeamId: users.salesTeamId }).from(users).where(eq(users.id, sellers[0]!));
    expect(leaver!.salesTeamId).toBeNull();
  });

  it('exports the links in the same order as their labels', async () => {
    await call('POST', '/api/SalesTeam/SaveMembers', { id: teamId, members: [{ userId: sellers[2], level: 2 }, { userId: sellers[0], level: 1 }] });
    const name = (await call('GET', `/api/SalesTeam/Get?id=${teamId}`)).json().data.name;
    const response = await call('GET', `/api/SalesTeam/Export?name=${encodeURIComponent(name)}`);
    expect(response.statusCode).toBe(200);
    const sheet = await readWorkbook(response);
    const texts = sheet.getRow(2).values as unknown[];
    const cell = String(texts.find((value) => typeof value === 'string' && value.includes('销售')));
    expect(cell.indexOf('销售甲')).toBeLessThan(cell.indexOf('销售丙'));
  });

  it('refuses a target twice, a value out of bounds, a target its picker does not offer and a stale version, changing nothing', async () => {
    const stored = await members();
    const version = await versionOf();
    const twice = await call('POST', '/api/SalesTeam/SaveMembers', { id: teamId, members: [{ userId: sellers[0], level: 1 }, { userId: sellers[0], level: 2 }] });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().data.errors).toMatchObject([{ path: 'members.1.userId', key: 'validation.linkTwice' }]);
    expect((await call('POST', '/api/SalesTeam/SaveMembers', { id: teamId, members: [{ userId: sellers[0], level: 10 }] })).statusCode).toBe(400);
    const [company] = await t.db.select({ id: users.id }).from(users).where(eq(users.loginName, 'admin'));
    const notOffered = await call('POST', '/api/SalesTeam/SaveMembers', { id: teamId, members: [{ userId: sellers[0], level: 1 }, { userId: company!.id, level: 2 }] });
    expect(notOffered.statusCode).toBe(400);
    expect(notOffered.json().data.errors).toMatchObject([{ path: 'members.1.userId', key: 'validation.referenceNotFound' }]);
    expect((await call('POST', '/api/SalesTeam/SaveMembers', { id: teamId, version: version - 1, members: [] })).statusCode).toBe(409);
    expect(await members()).toEqual(stored);
    expect(await versionOf()).toBe(version);
  });

  it('refuses a target another row holds when the link is exclusive, naming that row', async () => {
    const otherName = `别组${unique()}`;
    const other = await added('SalesTeam', { name: otherName });
    const taken = await call('POST', '/api/SalesTeam/SaveMembers', { id: other, members: [{ userId: sellers[0], level: 1 }] });
    expect(taken.statusCode).toBe(400);
    expect(taken.json().data.errors[0]).toMatchObject({ path: 'members.0.userId', key: 'validation.linkedElsewhere' });
    expect(taken.json().data.errors[0].message).toContain((await call('GET', `/api/SalesTeam/Get?id=${teamId}`)).json().data.name);
  });

  it('answers 404 for a row that does not exist', async () => {
    expect((await call('GET', '/api/SalesTeam/GetMembers?id=999999')).statusCode).toBe(404);
    expect((await call('POST', '/api/SalesTeam/SaveMembers', { id: 999999, members: [] })).statusCode).toBe(404);
  });
});
