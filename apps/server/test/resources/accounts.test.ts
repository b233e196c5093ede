import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { sessions, userSchools } from '../../src/db/schema/index.js';
import { md5Hex } from '../../src/platform/passwords.js';
import { CAPTCHA_CODE, createTestApp, type TestApp } from '../helpers/test-app.js';
import { schoolIdsOf, unique, userIdOf } from './fixtures.js';

type Row = Record<string, unknown>;

let t: TestApp;
let admin: string;
let agent1: string;

beforeAll(async () => {
  t = await createTestApp();
  [admin, agent1] = await Promise.all([t.loginAs('admin'), t.loginAs('agent1')]);
});
afterAll(() => t.close());

const call = (token: string, method: 'GET' | 'POST', url: string, payload?: unknown) =>
  t.injectAs(token, { method, url, ...(payload === undefined ? {} : { payload: payload as Row }) });

async function search(token: string, family: string, body: Row = {}): Promise<Row[]> {
  const response = await call(token, 'POST', `/api/${family}/Search`, { pageSize: 200, ...body });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.items;
}

/** The envelope of a login attempt (code 200, 600 or 601). */
async function tryLogin(userName: string, password: string): Promise<{ code: number | string; message: string }> {
  const captcha = await t.app.inject({ method: 'GET', url: '/api/Account/GetVerificationCode' });
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/Account/Login_web',
    payload: { userName, password: md5Hex(password), vcId: captcha.json().data.vcId, vcCode: CAPTCHA_CODE },
  });
  return response.json();
}

const newAccount = (prefix: string) => {
  const n = unique();
  return { loginName: `${prefix}${n}`, password: md5Hex(`Pw@${n}`), plain: `Pw@${n}`, name: `${prefix}${n}`, phoneNum: `139${n.padStart(8, '0').slice(-8)}` };
};

describe('POST /api/ExternalUser/Add', () => {
  it('lets a company admin create an agent, whose first login must change the password (601)', async () => {
    const { plain, ...body } = newAccount('agent');
    const added = await call(admin, 'POST', '/api/ExternalUser/Add', { ...body, type: 'agent' });
    expect(added.statusCode, added.body).toBe(200);
    expect((await tryLogin(body.loginName, plain)).code).toBe(601);
  });

  it('lets the admin skip the forced change, so the account signs in at once', async () => {
    const { plain, ...body } = newAccount('agent');
    expect((await call(admin, 'POST', '/api/ExternalUser/Add', { ...body, type: 'agent', mustChangePassword: false })).statusCode).toBe(200);
    expect((await tryLogin(body.loginName, plain)).code).toBe(200);
  });

  it('answers a field error for a login name that exists', async () => {
    const { plain: _plain, ...body } = newAccount('dup');
    const response = await call(admin, 'POST', '/api/ExternalUser/Add', { ...body, loginName: 'agent1', type: 'agent' });
    expect(response.statusCode).toBe(400);
    expect(response.json().data.errors).toEqual([{ path: 'loginName', message: 'already exists', key: 'validation.alreadyExists' }]);
  });

  it('refuses an agent creating an agent (403)', async () => {
    const { plain: _plain, ...body } = newAccount('agent');
    expect((await call(agent1, 'POST', '/api/ExternalUser/Add', { ...body, type: 'agent' })).statusCode).toBe(403);
  });

  it("lets an agent create an external user bound to its own schools only", async () => {
    const [own, foreign] = await Promise.all([schoolIdsOf(t, 'agent1'), schoolIdsOf(t, 'agent2')]);
    const { plain: _plain, ...body } = newAccount('ext');
    const outside = await call(agent1, 'POST', '/api/ExternalUser/Add', { ...body, schoolIds: [own[0], foreign[0]] });
    expect(outside.statusCode).toBe(400);
    expect(outside.json().data.errors[0].path).toBe('schoolIds');
    const none = await call(agent1, 'POST', '/api/ExternalUser/Add', { ...body, schoolIds: [] });
    expect(none.json().data.errors[0].path).toBe('schoolIds');

    const added = await call(agent1, 'POST', '/api/ExternalUser/Add', { ...body, schoolIds: [own[0], own[1]] });
    expect(added.statusCode, added.body).toBe(200);
    const row = (await call(agent1, 'GET', `/api/ExternalUser/Get?id=${added.json().data.id}`)).json().data;
    expect(row.type).toBe('external');
    expect(row.schoolIds).toEqual([own[0], own[1]]);
    expect(row.schoolIdsLabel).toHaveLength(2);
  });

  it("shows an agent only its own schools of a shared account, and leaves the account's links to the company", async () => {
    const [own, foreign] = await Promise.all([schoolIdsOf(t, 'agent1'), schoolIdsOf(t, 'agent2')]);
    const { plain: _plain, ...body } = newAccount('ext');
    const { id } = (await call(admin, 'POST', '/api/ExternalUser/Add', { ...body, schoolIds: [own[0], foreign[0]] })).json().data;
    const seen = (await call(agent1, 'GET', `/api/ExternalUser/Get?id=${id}`)).json().data;
    expect(seen.schoolIds).toEqual([own[0]]);
    // Shared with agent2's school: agent1 manages it no more than agent2 does (shared-accounts.test.ts).
    expect((await call(agent1, 'POST', '/api/ExternalUser/Update', { id, version: seen.version, schoolIds: [own[1]] })).statusCode).toBe(404);
    const links = await t.db.select({ schoolId: userSchools.schoolId }).from(userSchools).where(eq(userSchools.userId, id));
    expect(links.map((link) => link.schoolId).sort((a, b) => a - b)).toEqual([own[0], foreign[0]].sort((a, b) => a! - b!));
  });

  it('sets agent merchant ids only where canSetAgentMerchantId holds (refused on the field otherwise)', async () => {
    const own = await schoolIdsOf(t, 'agent1');
    const { plain: _plain, ...body } = newAccount('ext');
    const refused = await call(agent1, 'POST', '/api/ExternalUser/Add', { ...body, schoolIds: [own[0]], agentMktMrchId: 'M1' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().data.errors).toEqual([expect.objectContaining({ path: 'agentMktMrchId', key: 'validation.probeNeeded' })]);
    const { plain: _p, ...agentBody } = newAccount('agent');
    expect((await call(admin, 'POST', '/api/ExternalUser/Add', { ...agentBody, type: 'agent', agentMktMrchId: 'M2', agentMktMrchNm: '商户' })).statusCode).toBe(200);
  });
});

describe('account scope', () => {
  it("shows an agent its own child accounts and the external users of its schools, nobody else's", async () => {
    const agent1Id = await userIdOf(t, 'agent1');
    const children = await search(agent1, 'ChildUser');
    expect(children.length).toBeGreaterThan(0);
    expect(children.every((row) => row.parentId === agent1Id)).toBe(true);
    const externals = await search(agent1, 'ExternalUser');
    expect(externals.map((row) => row.loginName)).toContain('external1');
    expect(externals.every((row) => row.type === 'external')).toBe(true);

    const agent2 = await t.loginAs('agent2');
    expect((await search(agent2, 'ExternalUser')).map((row) => row.loginName)).not.toContain('external1');
    const child1 = await userIdOf(t, 'child1');
    expect((await call(agent2, 'GET', `/api/ChildUser/Get?id=${child1}`)).statusCode).toBe(404);
  });

  it('makes a child account created by an agent its own, whatever parent it names', async () => {
    const agent2Id = await userIdOf(t, 'agent2');
    const { plain: _plain, ...body } = newAccount('sub');
    const added = await call(agent1, 'POST', '/api/ChildUser/Add', { ...body, parentId: agent2Id });
    expect(added.statusCode, added.body).toBe(200);
    const row = (await call(agent1, 'GET', `/api/ChildUser/Get?id=${added.json().data.id}`)).json().data;
    expect(row.parentId).toBe(await userIdOf(t, 'agent1'));
  });

  it('asks a company admin for the agent of a child account, and only an agent will do', async () => {
    const { plain: _plain, ...body } = newAccount('sub');
    expect((await call(admin, 'POST', '/api/ChildUser/Add', body)).json().data.errors[0].path).toBe('parentId');
    const notAgent = await call(admin, 'POST', '/api/ChildUser/Add', { ...body, parentId: await userIdOf(t, 'sales1') });
    expect(notAgent.json().data.errors[0].path).toBe('parentId');
  });

  it('keeps company users from agents', async () => {
    const sales1 = await userIdOf(t, 'sales1');
    expect((await call(agent1, 'POST', '/api/CompanyUser/Search', {})).statusCode).toBe(403);
    // Even holding the frame, an agent reaches no company account.
    const { plain: _plain, ...body } = newAccount('staff');
    expect((await call(admin, 'GET', `/api/CompanyUser/Get?id=${sales1}`)).statusCode).toBe(200);
    expect((await call(admin, 'POST', '/api/CompanyUser/Add', { ...body, type: 'sales', sellerPosition: 'member' })).statusCode).toBe(200);
  });
});

describe('disabling and resetting accounts', () => {
  it('ends every session of an account the moment it is disabled', async () => {
    const { plain, ...body } = newAccount('ext');
    const own = await schoolIdsOf(t, 'agent1');
    const { id } = (await call(admin, 'POST', '/api/ExternalUser/Add', { ...body, schoolIds: [own[0]], mustChangePassword: false })).json().data;
    const token = await t.login(body.loginName, plain);
    expect((await call(token, 'GET', '/api/User/GetLoginUserInfo')).statusCode).toBe(200);

    const disabled = await call(admin, 'POST', '/api/ExternalUser/UpdateEnabled', { ids: [id], value: false });
    expect(disabled.statusCode, disabled.body).toBe(200);
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, id))).toEqual([]);
    const after = await call(token, 'GET', '/api/User/GetLoginUserInfo');
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe('10010');
    expect((await tryLogin(body.loginName, plain)).code).toBe(600);
  });

  it('ends the sessions of an account whose password an admin sets, and forces a change at next login', async () => {
    const { plain, ...body } = newAccount('ext');
    const own = await schoolIdsOf(t, 'agent1');
    const { id } = (await call(admin, 'POST', '/api/ExternalUser/Add', { ...body, schoolIds: [own[0]], mustChangePassword: false })).json().data;
    const token = await t.login(body.loginName, plain);
    const row = (await call(admin, 'GET', `/api/ExternalUser/Get?id=${id}`)).json().data;
    expect((await call(admin, 'POST', '/api/ExternalUser/Update', { id, version: row.version, password: md5Hex('Next@123') })).statusCode).toBe(200);
    expect((await call(token, 'GET', '/api/User/GetLoginUserInfo')).statusCode).toBe(401);
    expect((await tryLogin(body.loginName, 'Next@123')).code).toBe(601);
  });

  it('refuses to disable or delete your own account', async () => {
    const adminId = await userIdOf(t, 'admin');
    expect((await call(admin, 'POST', '/api/CompanyUser/UpdateEnabled', { ids: [adminId], value: false })).statusCode).toBe(400);
    expect((await call(admin, 'POST', '/api/CompanyUser/BatchDelete', [adminId])).statusCode).toBe(400);
    expect((await call(admin, 'GET', '/api/User/GetLoginUserInfo')).statusCode).toBe(200);
  });
});

describe('sales teams', () => {
  const shanghaiSchool = '上海市浦东新区星辰实验小学';

  async function salesSchools(token: string): Promise<string[]> {
    return (await search(token, 'School', { pageSize: 100 })).map((row) => String(row.schoolName));
  }

  it("follows team membership in a leader's scope, from the next call on", async () => {
    const sales1 = await t.loginAs('sales1');
    const [team] = await search(admin, 'SalesTeam', { name: '华东销售一组' });
    expect(team!.memberIdsLabel).toEqual(['王销售', '李销售']);
    // sales2 sells the Shanghai school; sales1 sees it as the leader of sales2's team.
    expect(await salesSchools(sales1)).toContain(shanghaiSchool);

    const sales1Id = await userIdOf(t, 'sales1');
    const save = (members: { userId: number; level: number }[]) => call(admin, 'POST', '/api/SalesTeam/SaveMembers', { id: team!.id, members });
    expect((await save([{ userId: sales1Id, level: 1 }])).statusCode).toBe(200);
    expect(await salesSchools(sales1)).not.toContain(shanghaiSchool);

    const sales2Id = await userIdOf(t, 'sales2');
    expect((await save([{ userId: sales1Id, level: 1 }, { userId: sales2Id, level: 2 }])).statusCode).toBe(200);
    expect(await salesSchools(sales1)).toContain(shanghaiSchool);
    const members = (await call(admin, 'GET', `/api/SalesTeam/GetMembers?id=${team!.id}`)).json().data;
    expect(members.map((member: Row) => [member.name, member.level])).toEqual([
      ['王销售', 1],
      ['李销售', 2],
    ]);
  });

  it('refuses a member of another team and an account that is no seller', async () => {
    const [team] = await search(admin, 'SalesTeam', { name: '华东销售一组' });
    const other = (await call(admin, 'POST', '/api/SalesTeam/Add', { name: `二组${unique()}` })).json().data;
    const sales2Id = await userIdOf(t, 'sales2');
    const taken = await call(admin, 'POST', '/api/SalesTeam/SaveMembers', { id: other.id, members: [{ userId: sales2Id, level: 1 }] });
    expect(taken.statusCode).toBe(400);
    expect(taken.json().data.errors[0].message).toContain('华东销售一组');
    const notSeller = await call(admin, 'POST', '/api/SalesTeam/SaveMembers', { id: team!.id, members: [{ userId: await userIdOf(t, 'agent1'), level: 1 }] });
    expect(notSeller.statusCode).toBe(400);
  });

  it('needs the update button to change members', async () => {
    const sales1 = await t.loginAs('sales1');
    const [team] = await search(admin, 'SalesTeam', { name: '华东销售一组' });
    expect((await call(sales1, 'GET', `/api/SalesTeam/GetMembers?id=${team!.id}`)).statusCode).toBe(200);
    expect((await call(sales1, 'POST', '/api/SalesTeam/SaveMembers', { id: team!.id, members: [] })).statusCode).toBe(403);
  });
});

describe('agent areas', () => {
  it('refuses a second agent in an area held exclusively', async () => {
    const agent1Id = await userIdOf(t, 'agent1');
    const agent2Id = await userIdOf(t, 'agent2');
    // 杭州市 (浙江省) is agent1's exclusively in the demo data.
    const refused = await call(admin, 'POST', '/api/AgentArea/Add', { agentId: agent2Id, province: '浙江省', city: '杭州市' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().data.errors[0].path).toBe('province');
    // 江苏省 is shared by both agents: no one may take it exclusively.
    const exclusive = await call(admin, 'POST', '/api/AgentArea/Add', { agentId: agent1Id, province: '江苏省', city: '南京市', isExclusive: true });
    expect(exclusive.json().data.errors[0].path).toBe('isExclusive');
    expect((await call(admin, 'POST', '/api/AgentArea/Add', { agentId: agent2Id, province: '浙江省', city: '宁波市' })).statusCode).toBe(200);
  });

  it('accepts only agents as the agent of an area', async () => {
    const response = await call(admin, 'POST', '/api/AgentArea/Add', { agentId: await userIdOf(t, 'external1'), province: '青海省' });
    expect(response.json().data.errors[0].path).toBe('agentId');
  });

  it('offers agents in the picker, filtered by type', async () => {
    const options = (await call(admin, 'GET', '/api/ExternalUser/Options?type=agent')).json().data;
    expect(options.map((option: Row) => option.label)).toEqual(expect.arrayContaining(['华东智慧校园代理', '西南教育科技代理']));
    expect(options.map((option: Row) => option.label)).not.toContain('阳光幼儿园园长');
  });
});
