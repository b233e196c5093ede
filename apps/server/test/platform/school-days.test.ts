import { NATIONAL_CALENDAR_PATH, type NationalCalendar } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schoolHolidays } from '../../src/db/schema/index.js';
import { isSchoolDay, schoolDaysBetween } from '../../src/platform/school-days.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { grantEverything, schoolIdsOf } from '../resources/fixtures.js';

let t: TestApp;
let admin: string;
let agent1: string;
let school: number;
let otherSchool: number;

beforeAll(async () => {
  t = await createTestApp();
  await grantEverything(t, 'agent1');
  [admin, agent1] = await Promise.all([t.loginAs('admin'), t.loginAs('agent1')]);
  [school, otherSchool] = await schoolIdsOf(t, 'agent1') as [number, number];
});
afterAll(() => t.close());

describe('isSchoolDay / schoolDaysBetween', () => {
  it('follows the national calendar: weekends off, National Day off, the Sunday worked in lieu on', async () => {
    expect(await isSchoolDay(t.db, school, '2026-09-16')).toBe(true); // a Wednesday
    expect(await isSchoolDay(t.db, school, '2026-09-19')).toBe(false); // a Saturday
    expect(await isSchoolDay(t.db, school, '2026-09-20')).toBe(true); // Sunday worked for National Day
    expect(await isSchoolDay(t.db, school, '2026-10-01')).toBe(false); // National Day
    // 2026-09-28 (Mon) .. 2026-10-11 (Sun): Mon–Wed, then the holiday to 10-07, Thu–Fri, and Saturday 10-10 worked.
    expect(await schoolDaysBetween(t.db, school, '2026-09-28', '2026-10-11')).toEqual(['2026-09-28', '2026-09-29', '2026-09-30', '2026-10-08', '2026-10-09', '2026-10-10']);
  });

  it("applies the school's own vacation and make-up day, and the rows for all schools, to that school only", async () => {
    await t.db.insert(schoolHolidays).values([
      { schoolId: school, name: '秋假', kind: 1, startDate: '2026-11-02', endDate: '2026-11-06' },
      { schoolId: school, name: '补课', kind: 3, startDate: '2026-11-07', endDate: '2026-11-07' },
      { schoolId: null, name: '全市停课', kind: 2, startDate: '2026-11-10', endDate: '2026-11-10' },
    ]);
    // Week of 2026-11-02: the vacation takes Mon–Fri, the make-up day gives Saturday back.
    expect(await schoolDaysBetween(t.db, school, '2026-11-02', '2026-11-10')).toEqual(['2026-11-07', '2026-11-09']);
    expect(await schoolDaysBetween(t.db, otherSchool, '2026-11-02', '2026-11-10')).toEqual(['2026-11-02', '2026-11-03', '2026-11-04', '2026-11-05', '2026-11-06', '2026-11-09']);
    expect(await isSchoolDay(t.db, otherSchool, '2026-11-10')).toBe(false);
  });

  it('lets a make-up day win over a vacation covering it', async () => {
    await t.db.insert(schoolHolidays).values([
      { schoolId: otherSchool, name: '寒假', kind: 1, startDate: '2027-01-18', endDate: '2027-02-20' },
      { schoolId: otherSchool, name: '返校日', kind: 3, startDate: '2027-02-03', endDate: '2027-02-03' },
    ]);
    expect(await schoolDaysBetween(t.db, otherSchool, '2027-01-25', '2027-02-05')).toEqual(['2027-02-03']);
  });
});

describe('SchoolHoliday (holidayManage)', () => {
  const add = (token: string, payload: Record<string, unknown>) => t.injectAs(token, { method: 'POST', url: '/api/SchoolHoliday/Add?view=holidayManage', payload });

  it('refuses a range that runs backwards', async () => {
    const response = await add(agent1, { schoolId: school, name: '错', kind: 1, startDate: '2026-12-10', endDate: '2026-12-01' });
    expect(response.statusCode).toBe(400);
    expect(response.json().data.errors[0].path).toBe('endDate');
  });

  it('lets company staff add a row for all schools, and makes an agent name one of its schools', async () => {
    expect((await add(admin, { name: '全国停课', kind: 2, startDate: '2026-12-01', endDate: '2026-12-01' })).statusCode).toBe(200);
    const refused = await add(agent1, { name: '全部', kind: 2, startDate: '2026-12-01', endDate: '2026-12-01' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().data.errors[0].path).toBe('schoolId');
  });

  it("answers the year's national calendar: holidays and worked weekends with their names", async () => {
    const response = await t.injectAs(agent1, { method: 'GET', url: `${NATIONAL_CALENDAR_PATH}?year=2026` });
    expect(response.statusCode, response.body).toBe(200);
    const calendar = response.json().data as NationalCalendar;
    expect(calendar.isKnown).toBe(true);
    expect(calendar.days).toContainEqual({ date: '2026-10-01', kind: 'holiday', name: { zh: '国庆节', en: 'National Day' } });
    expect(calendar.days).toContainEqual({ date: '2026-09-20', kind: 'workday', name: { zh: '国庆节', en: 'National Day' } });
    expect(calendar.days.some((day) => day.date === '2026-09-19')).toBe(false);
    expect((await t.injectAs(agent1, { method: 'GET', url: `${NATIONAL_CALENDAR_PATH}?year=1999` })).statusCode).toBe(400);
  });
});
