import { frameOf, type GrantTree } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { md5Hex } from '../../src/platform/passwords.js';
import { CAPTCHA_CODE, createTestApp, demoPassword, type TestApp } from '../helpers/test-app.js';
import { userIdOf } from '../resources/fixtures.js';

type Row = Record<string, unknown>;

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.loginAs('admin');
});
afterAll(() => t.close());

const call = (token: string, method: 'GET' | 'POST', url: string, payload?: unknown) =>
  t.injectAs(token, { method, url, ...(payload === undefined ? {} : { payload: payload as Row }) });

const id = (index: string) => frameOf(index).fixedId;

/** Frames granted in a tree, as route names, and the buttons held on one of them. */
const grantedFrames = (tree: GrantTree) =>
  tree.groups.flatMap((group) => group.frames.filter((frame) => frame.granted).map((frame) => frame.index)).sort();
const grantedButtons = (tree: GrantTree, index: string) =>
  tree.groups
    .flatMap((group) => group.frames)
    .find((frame) => frame.index === index)!
    .buttons.filter((button) => button.granted)
    .map((button) => button.value);

async function getGrant(token: string, query: string): Promise<GrantTree> {
  const response = await call(token, 'GET', `/api/Permission/GetGrant?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

async function menuOf(token: string): Promise<string[]> {
  const tree = (await call(token, 'GET', '/api/Home/GetNavigationTree')).json().data as { children: { index: string }[] }[];
  return tree.flatMap((group) => group.children.map((frame) => frame.index)).sort();
}

describe('GET/POST /api/Permission/GetGrant, SaveGrant', () => {
  it('round-trips the grant of a user type, and the type’s users see it at their next call', async () => {
    const external = await t.loginAs('external1');
    const saved = await call(admin, 'POST', '/api/Permission/SaveGrant', {
      userType: 'external',
      frames: [
        { frameId: id('studentInfo'), buttons: ['export'] },
        { frameId: id('teacherInfo'), buttons: [] },
      ],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const tree = await getGrant(admin, 'userType=external');
    expect(grantedFrames(tree)).toEqual(['index', 'personalInformation', 'studentInfo', 'teacherInfo']);
    expect(grantedButtons(tree, 'studentInfo')).toEqual(['export']);
    expect(tree.isOverride).toBe(false);
    expect(await menuOf(external)).toEqual(['index', 'personalInformation', 'studentInfo', 'teacherInfo']);
    expect((await call(external, 'POST', '/api/Student/Add', {})).statusCode).toBe(403);
  });

  it('round-trips the grant of one user as an override, and resets it to the type’s', async () => {
    const sales2Id = await userIdOf(t, 'sales2');
    const before = await getGrant(admin, `userId=${sales2Id}`);
    expect(before.isOverride).toBe(false);
    expect(before.user?.loginName).toBe('sales2');

    await call(admin, 'POST', '/api/Permission/SaveGrant', { userId: sales2Id, frames: [{ frameId: id('schoolManage'), buttons: ['export', 'update'] }] });
    const override = await getGrant(admin, `userId=${sales2Id}`);
    expect(override.isOverride).toBe(true);
    expect(grantedFrames(override)).toEqual(['index', 'personalInformation', 'schoolManage']);
    expect(grantedButtons(override, 'schoolManage')).toEqual(['update', 'export']);

    const reset = await call(admin, 'POST', '/api/Permission/ResetUserGrant', { userId: sales2Id });
    expect(reset.json().data.isOverride).toBe(false);
    expect(grantedFrames(reset.json().data)).toEqual(grantedFrames(before));
  });

  it('takes a frame away at once: the menu, the route’s calls and the API answer 403 without a new login', async () => {
    const sales1 = await t.loginAs('sales1');
    expect(await menuOf(sales1)).toContain('schoolManage');
    expect((await call(sales1, 'POST', '/api/School/Search', {})).statusCode).toBe(200);

    const sales1Id = await userIdOf(t, 'sales1');
    await call(admin, 'POST', '/api/Permission/SaveGrant', { userId: sales1Id, frames: [{ frameId: id('salesTeam'), buttons: ['export'] }] });
    expect(await menuOf(sales1)).toEqual(['index', 'personalInformation', 'salesTeam']);
    expect((await call(sales1, 'POST', '/api/School/Search', {})).statusCode).toBe(403);
    expect((await call(sales1, 'GET', '/api/School/Export')).statusCode).toBe(403);
    await call(admin, 'POST', '/api/Permission/ResetUserGrant', { userId: sales1Id });
    expect((await call(sales1, 'POST', '/api/School/Search', {})).statusCode).toBe(200);
  });

  it('refuses unknown frames and buttons a frame does not declare', async () => {
    const bad = await call(admin, 'POST', '/api/Permission/SaveGrant', {
      userType: 'sales',
      frames: [
        { frameId: 9999, buttons: [] },
        { frameId: id('index'), buttons: ['delete'] },
      ],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data.errors.map((error: Row) => error.path)).toEqual(['frames.0.frameId', 'frames.1.buttons']);
  });

  it('refuses changing your own grant', async () => {
    const adminId = await userIdOf(t, 'admin');
    expect((await call(admin, 'POST', '/api/Permission/SaveGrant', { userId: adminId, frames: [] })).statusCode).toBe(403);
  });
});

describe('an agent granting its child accounts', () => {
  let agent1: string;
  let child1Id: number;
  beforeAll(async () => {
    agent1 = await t.loginAs('agent1');
    child1Id = await userIdOf(t, 'child1');
  });

  it('offers only what the agent holds, and grants it', async () => {
    const tree = await getGrant(agent1, `userId=${child1Id}`);
    const frames = tree.groups.flatMap((group) => group.frames);
    expect(frames.find((frame) => frame.index === 'userCompany')!.grantable).toBe(false);
    expect(frames.find((frame) => frame.index === 'studentInfo')!.grantable).toBe(true);

    const saved = await call(agent1, 'POST', '/api/Permission/SaveGrant', { userId: child1Id, frames: [{ frameId: id('studentInfo'), buttons: ['export'] }] });
    expect(saved.statusCode, saved.body).toBe(200);
    const child1 = await t.loginAs('child1');
    expect(await menuOf(child1)).toEqual(['index', 'personalInformation', 'studentInfo']);
  });

  it('answers 403 to a frame or a button the agent does not hold', async () => {
    const frame = await call(agent1, 'POST', '/api/Permission/SaveGrant', { userId: child1Id, frames: [{ frameId: id('userCompany'), buttons: [] }] });
    expect(frame.statusCode).toBe(403);
    // agent1 holds schoolManage without 'delete'.
    const button = await call(agent1, 'POST', '/api/Permission/SaveGrant', { userId: child1Id, frames: [{ frameId: id('schoolManage'), buttons: ['delete'] }] });
    expect(button.statusCode).toBe(403);
  });

  it("keeps an agent away from type grants and from accounts that are not its children", async () => {
    expect((await call(agent1, 'GET', '/api/Permission/GetGrant?userType=child')).statusCode).toBe(403);
    expect((await call(agent1, 'POST', '/api/Permission/SaveGrant', { userType: 'child', frames: [] })).statusCode).toBe(403);
    const agent2Id = await userIdOf(t, 'agent2');
    expect((await call(agent1, 'GET', `/api/Permission/GetGrant?userId=${agent2Id}`)).statusCode).toBe(404);
    const accounts = (await call(agent1, 'GET', '/api/Permission/SearchAccounts')).json().data;
    expect(accounts.map((account: Row) => account.type)).toEqual(accounts.map(() => 'child'));
  });

  it("cuts a child to its agent's grant even when an admin grants it more", async () => {
    await call(admin, 'POST', '/api/Permission/SaveGrant', { userId: child1Id, frames: [{ frameId: id('userCompany'), buttons: ['add'] }, { frameId: id('studentInfo'), buttons: [] }] });
    const child1 = await t.loginAs('child1');
    expect(await menuOf(child1)).toEqual(['index', 'personalInformation', 'studentInfo']);
    expect((await call(child1, 'POST', '/api/CompanyUser/Search', {})).statusCode).toBe(403);
  });

  it('needs jurisdictionManage: a caller without it gets 403', async () => {
    const external = await t.loginAs('external1');
    expect((await call(external, 'GET', '/api/Permission/GetGrant?userType=company')).statusCode).toBe(403);
  });
});

describe('visibility probes', () => {
  it('edits the probes of a user type and of one user, who read them at their next call', async () => {
    const agent2 = await t.loginAs('agent2');
    const probesOf = async (token: string) => (await call(token, 'GET', '/api/User/GetVisibilityProbes')).json().data;
    expect((await probesOf(agent2)).hideAmountColumns).toBe(false);

    expect((await call(admin, 'POST', '/api/Permission/SaveProbes', { userType: 'agent', values: { hideAmountColumns: true } })).statusCode).toBe(200);
    expect((await probesOf(agent2)).hideAmountColumns).toBe(true);
    expect((await call(admin, 'GET', '/api/Permission/GetProbes?userType=agent')).json().data.values.hideAmountColumns).toBe(true);

    const agent2Id = await userIdOf(t, 'agent2');
    await call(admin, 'POST', '/api/Permission/SaveProbes', { userId: agent2Id, values: { hideAmountColumns: false, canSetAgentMerchantId: true } });
    const own = (await call(admin, 'GET', `/api/Permission/GetProbes?userId=${agent2Id}`)).json().data;
    expect(own.overrides).toEqual({ hideAmountColumns: false, canSetAgentMerchantId: true });
    expect(await probesOf(agent2)).toMatchObject({ hideAmountColumns: false, canSetAgentMerchantId: true, isAgent: true });
    // agent1 keeps its type's values.
    expect((await probesOf(await t.loginAs('agent1'))).hideAmountColumns).toBe(true);

    await call(admin, 'POST', '/api/Permission/ResetUserProbes', { userId: agent2Id });
    expect((await probesOf(agent2)).hideAmountColumns).toBe(true);
    await call(admin, 'POST', '/api/Permission/SaveProbes', { userType: 'agent', values: { hideAmountColumns: false } });
  });

  it('lets only company administrators edit probes', async () => {
    const agent1 = await t.loginAs('agent1');
    expect((await call(agent1, 'GET', '/api/Permission/GetProbes?userType=agent')).statusCode).toBe(403);
    const child1Id = await userIdOf(t, 'child1');
    expect((await call(agent1, 'POST', '/api/Permission/SaveProbes', { userId: child1Id, values: { canSetLicense: true } })).statusCode).toBe(403);
  });
});

describe('POST /api/LoginLog/Search', () => {
  it('finds login attempts by account, outcome and address, newest first', async () => {
    const captcha = await t.app.inject({ method: 'GET', url: '/api/Account/GetVerificationCode' });
    await t.app.inject({
      method: 'POST',
      url: '/api/Account/Login_web',
      headers: { 'user-agent': 'LoginLogTest/1.0' },
      payload: { userName: 'sales2', password: md5Hex('wrong'), vcId: captcha.json().data.vcId, vcCode: CAPTCHA_CODE },
    });
    // The account filter is a case-insensitive part of the name.
    const failed = (await call(admin, 'POST', '/api/LoginLog/Search', { loginName: 'ALES2', outcome: 'bad_password' })).json().data;
    expect(failed.items[0]).toMatchObject({ loginName: 'sales2', outcome: 'bad_password', userAgent: 'LoginLogTest/1.0' });
    expect(failed.items.every((row: Row) => row.outcome === 'bad_password')).toBe(true);

    const successes = (await call(admin, 'POST', '/api/LoginLog/Search', { loginName: 'admin', outcome: 'success', pageSize: 5 })).json().data;
    expect(successes.items.length).toBeGreaterThan(0);
    expect(successes.items[0].userIdLabel).toBe('系统管理员');
    const times = successes.items.map((row: Row) => String(row.createdAt));
    expect(times).toEqual([...times].sort().reverse());

    const address = String(successes.items[0].ip);
    const byAddress = (await call(admin, 'POST', '/api/LoginLog/Search', { ip: address.slice(0, 3) })).json().data;
    expect(byAddress.items.every((row: Row) => String(row.ip).startsWith(address.slice(0, 3)))).toBe(true);
    expect((await call(admin, 'POST', '/api/LoginLog/Search', { ip: 'no-such-address' })).json().data.items).toEqual([]);
  });

  it('is for company staff only, although agents hold the page', async () => {
    const agent1 = await t.loginAs('agent1');
    expect((await call(agent1, 'POST', '/api/LoginLog/Search', {})).statusCode).toBe(403);
    expect((await call(agent1, 'GET', '/api/LoginLog/Export')).statusCode).toBe(403);
  });

  it('is gone from /api/Permission', async () => {
    expect((await call(admin, 'POST', '/api/Permission/SearchLoginLog', {})).statusCode).toBe(404);
  });
});

describe('sessions of the caller', () => {
  it('lists the active sessions, marks this one and ends the others', async () => {
    const first = await t.loginAs('agent2');
    const second = await t.loginAs('agent2');
    const listed = (await call(second, 'GET', '/api/User/GetSessions')).json().data.items as Row[];
    expect(listed.length).toBeGreaterThanOrEqual(2);
    expect(listed.filter((session) => session.isCurrent)).toHaveLength(1);

    const ended = await call(second, 'POST', '/api/User/EndOtherSessions');
    expect(ended.json().data.ended).toBeGreaterThanOrEqual(1);
    expect((await call(first, 'GET', '/api/User/GetLoginUserInfo')).statusCode).toBe(401);
    expect((await call(second, 'GET', '/api/User/GetSessions')).json().data).toMatchObject({ total: 1, items: [{ isCurrent: true }] });
  });

  it('names the browser and system in words and pages the sessions, this one first', async () => {
    const login = async (userAgent: string) => {
      const captcha = await t.app.inject({ method: 'GET', url: '/api/Account/GetVerificationCode' });
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/Account/Login_web',
        headers: { 'user-agent': userAgent },
        payload: { userName: 'sales2', password: md5Hex(demoPassword('sales2')), vcId: captcha.json().data.vcId, vcCode: CAPTCHA_CODE },
      });
      return response.json().data.Token as string;
    };
    await login('Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.49(0x18003129) NetType/WIFI Language/zh_CN');
    await login('curl/8.5.0');
    const mine = await login('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36');
    const firstPage = (await call(mine, 'GET', '/api/User/GetSessions?pageIndex=1&pageSize=2')).json().data;
    expect(firstPage.total).toBe(3);
    expect(firstPage.items).toHaveLength(2);
    expect(firstPage.items[0]).toMatchObject({ isCurrent: true, browser: 'Chrome 131', system: 'Windows 10', device: 'desktop' });
    const secondPage = (await call(mine, 'GET', '/api/User/GetSessions?pageIndex=2&pageSize=2')).json().data;
    expect(secondPage.items).toHaveLength(1);
    const others = [...firstPage.items.slice(1), ...secondPage.items] as Row[];
    expect(others.map((session) => [session.browser, session.system, session.device])).toEqual(
      expect.arrayContaining([
        ['WeChat 8', 'iOS 17.5', 'mobile'],
        [null, null, null],
      ]),
    );
    expect((await call(mine, 'GET', '/api/User/GetSessions?pageSize=101')).statusCode).toBe(400);
  });

  it("ends one chosen session, never another account's", async () => {
    const other = await t.loginAs('agent2');
    const mine = await t.loginAs('agent2');
    const sessions = (await call(mine, 'GET', '/api/User/GetSessions')).json().data.items as Row[];
    // The newest other session is `other` (the test clock stands still, so ids tell the order).
    const target = sessions.filter((session) => !session.isCurrent).sort((a, b) => Number(b.id) - Number(a.id))[0]!;
    expect((await call(admin, 'POST', '/api/User/EndSession', { id: target.id })).statusCode).toBe(404);
    expect((await call(mine, 'POST', '/api/User/EndSession', { id: target.id })).statusCode).toBe(200);
    expect((await call(other, 'GET', '/api/User/GetLoginUserInfo')).statusCode).toBe(401);
  });
});
