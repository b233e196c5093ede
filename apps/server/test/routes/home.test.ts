import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grants, schools, users } from '../../src/db/schema/index.js';
import { md5Hex } from '../../src/platform/passwords.js';
import { setSignCardMode } from '../../src/platform/settings.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

interface Group {
  key: string;
  children: { fixedId: number; index: string; buttons: string[]; badge: string | null }[];
}

describe('GET /api/Home/GetNavigationTree', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const treeOf = async (token: string) => (await t.injectAs(token, { method: 'GET', url: '/api/Home/GetNavigationTree' })).json().data as Group[];
  const indexesOf = (tree: Group[]) => tree.flatMap((group) => group.children.map((frame) => frame.index));

  it('gives the company admin all 8 groups and every frame with every button', async () => {
    const tree = await treeOf(await t.loginAs('admin'));
    expect(tree.map((group) => group.key)).toEqual(['home', 'users', 'sales', 'operations', 'inventory', 'maintenance', 'finance', 'system']);
    const school = tree.flatMap((group) => group.children).find((frame) => frame.index === 'schoolManage')!;
    expect(school).toMatchObject({ fixedId: 301, badge: 'schoolLicenseUnset', buttons: ['add', 'update', 'delete', 'export', 'import', 'state', 'examine', 'password'] });
  });

  it('gives an agent only its frames and buttons, in sort order, without empty groups', async () => {
    const tree = await treeOf(await t.loginAs('agent1'));
    const indexes = indexesOf(tree);
    expect(indexes).toContain('schoolManage');
    expect(indexes).not.toContain('userCompany');
    expect(indexes).not.toContain('appOpen');
    // Of the operations group an agent holds only its schools' app-use statistics, not the app's content.
    const operations = tree.find((group) => group.key === 'operations')!.children.map((frame) => frame.index);
    expect(operations.sort()).toEqual(['funStatistics', 'functionalTrends', 'uaStatistics', 'userActTable', 'userStatistics', 'userStyleStatistics']);
    const school = tree.flatMap((group) => group.children).find((frame) => frame.index === 'schoolManage')!;
    expect(school.buttons).not.toContain('delete');
    for (const group of tree) {
      const ids = group.children.map((frame) => frame.fixedId);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
    }
  });

  it('gives an external user its school-side frames only', async () => {
    const indexes = indexesOf(await treeOf(await t.loginAs('external1')));
    expect(indexes.sort()).toEqual(['identifySuccess', 'index', 'parentUser', 'personSearch', 'personalInformation', 'pickupInfo', 'studentInfo', 'teacherInfo'].sort());
  });

  it('hides codeManageA and codeManageB while sign-card mode is off, from the menu and the login frames', async () => {
    const token = await t.loginAs('agent1');
    expect(indexesOf(await treeOf(token))).toEqual(expect.arrayContaining(['codeManageA', 'codeManageB']));
    await setSignCardMode(t.db, false);
    try {
      expect(indexesOf(await treeOf(token))).not.toContain('codeManageA');
      expect(indexesOf(await treeOf(token))).not.toContain('codeManageB');
      expect((await t.injectAs(token, { method: 'GET', url: '/api/Home/GetSignCardMode' })).json().data).toBe(false);
      const captcha = (await t.app.inject({ method: 'GET', url: '/api/Account/GetVerificationCode' })).json().data;
      const login = await t.app.inject({
        method: 'POST',
        url: '/api/Account/Login_web',
        payload: { userName: 'admin', password: md5Hex('Admin@123'), vcId: captcha.vcId, vcCode: '1234' },
      });
      expect(login.json().data.Frames).not.toContainEqual({ ID: 602 });
    } finally {
      await setSignCardMode(t.db, true);
    }
  });

  it('applies a per-user override at the next call, replacing the type grant', async () => {
    const token = await t.loginAs('agent2');
    const [agent2] = await t.db.select().from(users).where(eq(users.loginName, 'agent2'));
    await t.db.insert(grants).values({ subjectType: 'user', userId: agent2!.id, frameId: 301, buttons: ['export'] });
    expect(indexesOf(await treeOf(token))).toEqual(['index', 'schoolManage', 'personalInformation']);
    await t.db.delete(grants).where(and(eq(grants.subjectType, 'user'), eq(grants.userId, agent2!.id)));
    expect(indexesOf(await treeOf(token)).length).toBeGreaterThan(3);
  });

  it("cuts a child account to what its parent agent holds", async () => {
    const [child] = await t.db.select().from(users).where(eq(users.loginName, 'child1'));
    await t.db.insert(grants).values([
      { subjectType: 'user', userId: child!.id, frameId: 301, buttons: ['export', 'delete'] },
      { subjectType: 'user', userId: child!.id, frameId: 801, buttons: ['add'] },
    ]);
    const tree = await treeOf(await t.loginAs('child1'));
    expect(indexesOf(tree)).not.toContain('userCompany');
    expect(tree.flatMap((group) => group.children).find((frame) => frame.index === 'schoolManage')!.buttons).toEqual(['export']);
    await t.db.delete(grants).where(eq(grants.userId, child!.id));
  });
});

describe('GET /api/Home/GetBadgeCounts', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const countsOf = async (loginName: string) =>
    (await t.injectAs(await t.loginAs(loginName), { method: 'GET', url: '/api/Home/GetBadgeCounts' })).json().data;

  it('counts the schools without a licence setting inside the caller scope', async () => {
    const unsetEverywhere = (await t.db.select().from(schools).where(eq(schools.licenseKeyRequired, 0))).length;
    expect(await countsOf('admin')).toMatchObject({ schoolLicenseUnset: unsetEverywhere });
    expect(await countsOf('agent1')).toMatchObject({ schoolLicenseUnset: 2 });
    expect(await countsOf('child1')).toMatchObject({ schoolLicenseUnset: 2 });
  });

  it('counts the devices still waiting for a licence inside the caller scope', async () => {
    // Demo data: the attendance machine of every second school lacks its licence; stock (6 gates and
    // 4 attendance machines for the demo orders) is company-only.
    expect((await countsOf('admin')).licenseUnset).toBe(4 + 10);
    expect((await countsOf('agent1')).licenseUnset).toBe(2);
    expect((await countsOf('agent2')).licenseUnset).toBe(2);
  });

  it('leaves out badges whose frame the caller does not hold', async () => {
    expect(await countsOf('external1')).toEqual({});
  });
});
