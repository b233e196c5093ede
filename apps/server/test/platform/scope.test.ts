import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schools, users } from '../../src/db/schema/index.js';
import { resolveSchoolScope, scopeCondition, type SchoolScope } from '../../src/platform/scope.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

describe('resolveSchoolScope', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function scopeOf(loginName: string): Promise<SchoolScope> {
    const [user] = await t.db.select().from(users).where(eq(users.loginName, loginName));
    return resolveSchoolScope(t.db, user!);
  }

  async function schoolNames(scope: SchoolScope): Promise<string[]> {
    const rows = await t.db.select({ name: schools.schoolName }).from(schools).where(scopeCondition(scope, schools.id)).orderBy(schools.id);
    return rows.map((row) => row.name);
  }

  it('gives a company user every school', async () => {
    const scope = await scopeOf('admin');
    expect(scope).toEqual({ kind: 'all' });
    expect(await schoolNames(scope)).toHaveLength(8);
  });

  it("gives a sales member the schools it sells", async () => {
    expect(await schoolNames(await scopeOf('sales2'))).toEqual(['上海市浦东新区星辰实验小学']);
  });

  it("gives a sales team leader its own schools, its team's schools and its members' schools", async () => {
    expect(await schoolNames(await scopeOf('sales1'))).toEqual([
      '北京市海淀区阳光幼儿园',
      '上海市浦东新区星辰实验小学',
      '杭州市西湖区育才幼儿园',
      '广州市天河区启明幼儿园',
    ]);
  });

  it('gives an agent the schools whose agent it is', async () => {
    expect(await schoolNames(await scopeOf('agent1'))).toEqual([
      '北京市海淀区阳光幼儿园',
      '上海市浦东新区星辰实验小学',
      '杭州市西湖区育才幼儿园',
      '南京市鼓楼区金陵小学',
    ]);
    expect(await schoolNames(await scopeOf('agent2'))).toHaveLength(4);
  });

  it("gives a child account exactly its parent agent's scope", async () => {
    expect(await scopeOf('child1')).toEqual(await scopeOf('agent1'));
  });

  it('gives an external user its bound schools', async () => {
    expect(await schoolNames(await scopeOf('external1'))).toEqual(['北京市海淀区阳光幼儿园']);
  });

  it('matches no row for an empty scope', async () => {
    expect(await schoolNames({ kind: 'schools', schoolIds: [] })).toEqual([]);
    const two = await t.db.select({ id: schools.id }).from(schools).where(inArray(schools.schoolName, ['北京市海淀区阳光幼儿园', '南京市鼓楼区金陵小学']));
    expect(await schoolNames({ kind: 'schools', schoolIds: two.map((row) => row.id) })).toHaveLength(2);
  });
});
