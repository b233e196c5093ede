import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Overview } from '@campus/contract';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

type Rows<T> = { rows: T[] };

describe('GET /api/Overview/GetSummary', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    // The clock at the end of the China day of the demo's last row, so every row exists by then and
    // the days compared hold the demo's recognitions whatever the time the suite runs (rows stamped
    // by the database's clock just after midnight in China would otherwise leave "today" empty).
    const found = (await t.db.execute(
      sql`select greatest((select max(recognized_at) from recognition_records), (select max(created_at) from schools), (select max(created_at) from students),
        (select max(created_at) from parents), (select max(paid_at) from payment_records)) as last`,
    )) as unknown as Rows<{ last: string | Date }>;
    const last = new Date(found.rows[0]!.last).getTime();
    const CHINA_OFFSET = 8 * 3_600_000;
    const DAY = 86_400_000;
    const endOfChinaDay = Math.floor((last + CHINA_OFFSET) / DAY) * DAY + DAY - CHINA_OFFSET - 1_000;
    t.clock.advance(endOfChinaDay - t.clock.now().getTime());
  });
  afterAll(() => t.close());

  const overviewOf = async (loginName: string): Promise<Overview> => {
    const response = await t.injectAs(await t.loginAs(loginName), { method: 'GET', url: '/api/Overview/GetSummary' });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  };

  /** The same figures counted straight from the rows, by the database's own time-zone arithmetic. */
  const directCounts = async (schoolIds: number[] | null, daysBack: number) => {
    const now = new Date(t.clock.now().getTime() - daysBack * 86_400_000);
    const scoped = (column: string) => (schoolIds ? sql`${sql.raw(column)} in (${sql.join(schoolIds.map((id) => sql`${id}`), sql`, `)})` : sql`true`);
    const sameDay = (column: string) => sql`(${sql.raw(column)} at time zone 'Asia/Shanghai')::date = (${now}::timestamptz at time zone 'Asia/Shanghai')::date and ${sql.raw(column)} < ${now}`;
    const count = async (query: ReturnType<typeof sql>) => Number(((await t.db.execute(query)) as unknown as Rows<{ n: string }>).rows[0]!.n);
    return {
      schools: await count(sql`select count(*) as n from schools where ${scoped('id')} and created_at <= ${now}`),
      students: await count(sql`select count(*) as n from students where ${scoped('school_id')} and created_at <= ${now}`),
      parents: await count(sql`select count(*) as n from parents where ${scoped('school_id')} and created_at <= ${now}`),
      recognitions: await count(sql`select count(*) as n from recognition_records where ${scoped('school_id')} and ${sameDay('recognized_at')}`),
      revenue: await count(sql`select coalesce(sum(amount), 0) as n from payment_records where ${scoped('school_id')} and ${sameDay('paid_at')}`),
      devicesOnline: await count(sql`select count(*) as n from terminals where ${scoped('school_id')} and offline_at > ${now}`),
      devicesOffline: await count(sql`select count(*) as n from terminals where ${scoped('school_id')} and (offline_at is null or offline_at <= ${now})`),
    };
  };

  const expectFiguresToMatch = async (overview: Overview, schoolIds: number[] | null) => {
    const [today, yesterday, lastWeek] = [await directCounts(schoolIds, 0), await directCounts(schoolIds, 1), await directCounts(schoolIds, 7)];
    for (const key of ['schools', 'students', 'parents', 'recognitions', 'revenue'] as const) {
      expect(overview.figures[key], key).toEqual({ today: today[key], yesterday: yesterday[key], lastWeek: lastWeek[key] });
    }
    // Their past (from the offline periods) is checked against direct counts in terminals/offline-periods.test.ts.
    expect(overview.figures.devicesOnline.today).toBe(today.devicesOnline);
    expect(overview.figures.devicesOffline.today).toBe(today.devicesOffline);
    expect(overview.recognitionsByHour.reduce((sum, n) => sum + n, 0)).toBe(today.recognitions);
  };

  it('equals direct counts of the rows for the company, on days that hold recognitions', async () => {
    const overview = await overviewOf('admin');
    const { recognitions, schools } = overview.figures;
    expect(recognitions.today + recognitions.yesterday + recognitions.lastWeek).toBeGreaterThan(0);
    expect(schools.today).toBeGreaterThan(0);
    await expectFiguresToMatch(overview, null);
  });

  it("covers only an agent's schools for the agent", async () => {
    const found = (await t.db.execute(sql`select s.id from schools s join users u on u.id = s.agent_id where u.login_name = 'agent1'`)) as unknown as Rows<{ id: number }>;
    const schoolIds = found.rows.map((row) => Number(row.id));
    const overview = await overviewOf('agent1');
    await expectFiguresToMatch(overview, schoolIds);
    const company = await overviewOf('admin');
    expect(overview.figures.schools.today).toBeLessThan(company.figures.schools.today);
    expect(overview.topSchools.every((school) => schoolIds.includes(school.schoolId))).toBe(true);
  });

  it('saves the home widgets per user, in order, and refuses a save without the homeCustomization button', async () => {
    const agent = await t.loginAs('agent1');
    const widgets = [
      { key: 'notices', visible: true },
      { key: 'figures', visible: false },
    ];
    const saved = await t.injectAs(agent, { method: 'POST', url: '/api/HomeWidget/Save', payload: { widgets } });
    expect(saved.statusCode, saved.body).toBe(200);
    const read = (await t.injectAs(agent, { method: 'GET', url: '/api/HomeWidget/Get' })).json().data as { key: string; visible: boolean }[];
    expect(read.slice(0, 2)).toEqual(widgets);
    expect(read.map((widget) => widget.key)).toEqual(['notices', 'figures', 'pending', 'account', 'shortcuts']);
    // Another user's home is its own.
    const admin = await t.loginAs('admin');
    expect((await t.injectAs(admin, { method: 'GET', url: '/api/HomeWidget/Get' })).json().data[0]).toEqual({ key: 'figures', visible: true });
    const twice = await t.injectAs(agent, { method: 'POST', url: '/api/HomeWidget/Save', payload: { widgets: [widgets[0], widgets[0]] } });
    expect(twice.statusCode).toBe(400);
    // A sales person's default grant has no homeCustomization: its home keeps the default widgets.
    const sales = await t.loginAs('sales1');
    const refused = await t.injectAs(sales, { method: 'POST', url: '/api/HomeWidget/Save', payload: { widgets } });
    expect(refused.statusCode).toBe(403);
  });
});
