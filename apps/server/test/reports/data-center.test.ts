/**
 * DataCenter (issue 31): each of its four trends equals a direct count over the raw rows it rolls up
 * (recognition records, payments and refunds, app-use events, devices) on the demo data, for the
 * company and within an agent's schools; area filters narrow to the schools of the area; the default
 * range is the last 30 days ending on China's today; bad filters answer the error envelope.
 */
import { formatBusinessDate, REFUND_SUCCEEDED } from '@campus/contract';
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rollUpAttendance } from '../../src/reports/attendance-rollup.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { readWorkbook, schoolIdsOf, userIdOf } from '../resources/fixtures.js';

type Row = Record<string, unknown>;
type Answer = { items: Row[]; totals: Record<string, number> };

let t: TestApp;
let admin: string;
let agent1: string;
let agent1Schools: number[];
/** Every demo row's day, by month (a day grain covers at most 366 days). */
let range: { dayFrom: string; dayTo: string; grain: 'month' };
/** The last 366 days of `range`, by day. */
let days: { dayFrom: string; dayTo: string; grain: 'day' };

const rows = async (query: SQL) => ((await t.db.execute(query)) as unknown as { rows: Row[] }).rows;
const summary = async (token: string, report: string, query: Record<string, string | number>): Promise<Answer> => {
  const response = await t.injectAs(token, { method: 'GET', url: `/api/${report}/GetSummary?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]))}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as Answer;
};
/** Groups keyed by their dimensions, with the measures asked, numbers compared as numbers. */
const keyed = (items: Row[], dimensions: string[], measures: string[]) =>
  Object.fromEntries(items.map((item) => [dimensions.map((d) => String(item[d])).join('|'), measures.map((m) => Number(item[m]))]));
const dayOf = (column: string) => sql.raw(`to_char((${column} at time zone 'Asia/Shanghai')::date, 'YYYY-MM-DD')`);
const inRange = (column: string, within: { dayFrom: string; dayTo: string } = range) =>
  sql`(${sql.raw(column)} at time zone 'Asia/Shanghai')::date between ${within.dayFrom}::date and ${within.dayTo}::date`;
const ofSchools = (ids: number[]) => sql`school_id = any(${`{${ids.join(',')}}`}::int[])`;

beforeAll(async () => {
  t = await createTestApp();
  [admin, agent1] = await Promise.all([t.loginAs('admin'), t.loginAs('agent1')]);
  agent1Schools = await schoolIdsOf(t, 'agent1');
  // The demo's records are stamped with the test clock and with the database's today: cover both.
  const [today] = await rows(sql`select to_char((now() at time zone 'Asia/Shanghai')::date, 'YYYY-MM-DD') as day`);
  const clockDay = formatBusinessDate(new Date(t.clock.now().getTime() - 120 * 86_400_000));
  const databaseToday = String(today!.day);
  const dayTo = databaseToday > formatBusinessDate(t.clock.now()) ? databaseToday : formatBusinessDate(t.clock.now());
  range = { dayFrom: clockDay < databaseToday ? clockDay : databaseToday, dayTo, grain: 'month' };
  const yearBack = formatBusinessDate(new Date(Date.parse(`${dayTo}T12:00:00+08:00`) - 365 * 86_400_000));
  days = { dayFrom: yearBack > range.dayFrom ? yearBack : range.dayFrom, dayTo, grain: 'day' };
  // The recurring job, as it would have run by now: every demo recognition merged.
  await rollUpAttendance(t.db, new Date(), { settleSeconds: 0, batchIds: 5_000 });
});
afterAll(() => t.close());

describe('each DataCenter trend equals a direct count over its raw rows', () => {
  it('DataCenterRecognitions: recognitions, failed ones and children present per day', async () => {
    const answer = await summary(admin, 'DataCenterRecognitions', { ...days, groupBy: 'period' });
    const direct = await rows(sql`select ${dayOf('recognized_at')} as period, count(*)::int as recognitions, count(*) filter (where not success)::int as failed,
        count(distinct person_id) filter (where success and person_kind = 1 and person_id is not null)::int as present
      from recognition_records where ${inRange('recognized_at', days)} group by 1`);
    expect(direct.length).toBeGreaterThan(2);
    expect(keyed(answer.items, ['period'], ['recognitions', 'failed', 'present'])).toEqual(keyed(direct, ['period'], ['recognitions', 'failed', 'present']));
  });

  it('DataCenterPayments: payments and what they paid on the day paid, refunds on the day settled, per school', async () => {
    const answer = await summary(admin, 'DataCenterPayments', { ...range, groupBy: 'schoolId' });
    const direct = await rows(sql`with p as (select school_id, count(*)::int as payments, sum(amount)::bigint as paid from payment_records where ${inRange('paid_at')} group by 1),
        r as (select p.school_id, count(*)::int as refunds, sum(r.refund_amount)::bigint as refunded from refunds r join payment_records p on p.id = r.payment_id
              where r.state = ${REFUND_SUCCEEDED} and ${inRange('r.refunded_at')} group by 1)
      select coalesce(p.school_id, r.school_id) as "schoolId", coalesce(p.payments, 0) as payments, coalesce(p.paid, 0) as paid,
        coalesce(r.refunds, 0) as refunds, coalesce(r.refunded, 0) as refunded, coalesce(p.paid, 0) - coalesce(r.refunded, 0) as net
      from p full join r on r.school_id = p.school_id`);
    expect(direct.length).toBeGreaterThan(1);
    const measures = ['payments', 'paid', 'refunds', 'refunded', 'net'];
    expect(keyed(answer.items, ['schoolId'], measures)).toEqual(keyed(direct, ['schoolId'], measures));
    expect(answer.items.every((item) => typeof item.schoolIdLabel === 'string')).toBe(true);
  });

  it.each(['day', 'week', 'month'] as const)('DataCenterAppActivity by %s: distinct active, new and returning parents per school summed', async (grain) => {
    const within = grain === 'day' ? days : range;
    const answer = await summary(admin, 'DataCenterAppActivity', { ...within, grain, groupBy: 'period' });
    const unit = sql.raw(`'${grain}'`);
    const eventDay = sql`(e.occurred_at at time zone 'Asia/Shanghai')::date`;
    const period = sql`to_char(date_trunc(${unit}, ${eventDay}::timestamp), 'YYYY-MM-DD')`;
    // A parent counts once per period and school; a week or month starting before the range counts whole.
    const direct = await rows(sql`with f as (select parent_id, min(${eventDay}) as first_day from app_use_events e group by 1),
      a as (select distinct ${period} as period, e.school_id, e.parent_id from app_use_events e
            where ${eventDay} >= date_trunc(${unit}, ${within.dayFrom}::date::timestamp)::date and ${eventDay} <= ${within.dayTo}::date)
      select a.period, count(*)::int as active,
        count(*) filter (where to_char(date_trunc(${unit}, f.first_day::timestamp), 'YYYY-MM-DD') = a.period)::int as "newParents"
      from a join f on f.parent_id = a.parent_id group by 1`);
    expect(direct.length).toBeGreaterThan(0);
    const withReturning = direct.map((row) => ({ ...row, returning: Number(row.active) - Number(row.newParents) }));
    const measures = ['active', 'newParents', 'returning'];
    expect(keyed(answer.items, ['period'], measures)).toEqual(keyed(withReturning, ['period'], measures));
  });

  it('DataCenterDevices: devices stocked, shipped and installed per day and school', async () => {
    const answer = await summary(admin, 'DataCenterDevices', { ...days, groupBy: 'period,schoolId' });
    const direct = await rows(sql`with d as (
        select ${dayOf('created_at')} as period, school_id as school_id, 1 as stocked, 0 as shipped, 0 as installed from devices where ${inRange('created_at', days)}
        union all select ${dayOf('shipped_at')}, school_id, 0, 1, 0 from devices where shipped_at is not null and ${inRange('shipped_at', days)}
        union all select ${dayOf('installed_at')}, school_id, 0, 0, 1 from devices where installed_at is not null and ${inRange('installed_at', days)})
      select period, school_id as "schoolId", sum(stocked)::int as stocked, sum(shipped)::int as shipped, sum(installed)::int as installed from d group by 1, 2`);
    expect(direct.length).toBeGreaterThan(0);
    const measures = ['stocked', 'shipped', 'installed'];
    expect(keyed(answer.items, ['period', 'schoolId'], measures)).toEqual(keyed(direct, ['period', 'schoolId'], measures));
  });
});

describe("an agent's trends cover only its schools", () => {
  it('answers every trend of agent1 from its schools only, equal to the admin filtered by agent1', async () => {
    const agent1Id = await userIdOf(t, 'agent1');
    for (const report of ['DataCenterRecognitions', 'DataCenterPayments', 'DataCenterAppActivity', 'DataCenterDevices']) {
      const own = await summary(agent1, report, { ...range, groupBy: 'schoolId' });
      expect(own.items.every((item) => agent1Schools.includes(Number(item.schoolId))), report).toBe(true);
      const byAdmin = await summary(admin, report, { ...range, groupBy: 'schoolId', agentId: agent1Id });
      expect(own.totals, report).toEqual(byAdmin.totals);
      const all = await summary(admin, report, { ...range, groupBy: 'schoolId' });
      expect(all.items.length, report).toBeGreaterThan(own.items.length);
    }
    const [recognitions] = await rows(sql`select count(*)::int as n from recognition_records where ${ofSchools(agent1Schools)} and ${inRange('recognized_at')}`);
    expect((await summary(agent1, 'DataCenterRecognitions', { ...range, groupBy: 'period' })).totals.recognitions).toBe(Number(recognitions!.n));
    const [paid] = await rows(sql`select coalesce(sum(amount), 0)::bigint as n from payment_records where ${ofSchools(agent1Schools)} and ${inRange('paid_at')}`);
    expect((await summary(agent1, 'DataCenterPayments', { ...range, groupBy: 'period' })).totals.paid).toBe(Number(paid!.n));
  });

  it('narrows to the schools of a province and city, and to one school', async () => {
    const [place] = await rows(sql`select province, city from schools where id = ${agent1Schools[0]!}`);
    const inArea = (await rows(sql`select id from schools where province = ${place!.province} and city = ${place!.city}`)).map((row) => Number(row.id));
    const area = await summary(admin, 'DataCenterRecognitions', { ...range, groupBy: 'schoolId', province: String(place!.province), city: String(place!.city) });
    expect(area.items.length).toBeGreaterThan(0);
    expect(area.items.every((item) => inArea.includes(Number(item.schoolId)))).toBe(true);
    const [direct] = await rows(sql`select count(*)::int as n from recognition_records where ${ofSchools(inArea)} and ${inRange('recognized_at')}`);
    expect(area.totals.recognitions).toBe(Number(direct!.n));
    const one = await summary(admin, 'DataCenterRecognitions', { ...range, groupBy: 'schoolId', schoolId: agent1Schools[0]! });
    expect(one.items.map((item) => item.schoolId)).toEqual([agent1Schools[0]]);
  });
});

describe('the range, the page and the export', () => {
  it('covers the last 30 days ending on China\'s today when no range is given', async () => {
    const answer = await summary(admin, 'DataCenterPayments', { groupBy: 'period' });
    const today = formatBusinessDate(t.clock.now());
    const first = formatBusinessDate(new Date(t.clock.now().getTime() - 29 * 86_400_000));
    const direct = await rows(sql`select count(*)::int as n from payment_records where (paid_at at time zone 'Asia/Shanghai')::date between ${first}::date and ${today}::date`);
    expect(answer.totals.payments).toBe(Number(direct[0]!.n));
    expect(answer.items.every((item) => String(item.period) >= first && String(item.period) <= today)).toBe(true);
  });

  it('exports the groups the chart\'s table shows as typed cells, with a totals row', async () => {
    const shown = await summary(admin, 'DataCenterPayments', { ...range, groupBy: 'schoolId' });
    const response = await t.injectAs(admin, { method: 'GET', url: `/api/DataCenterPayments/Export?dayFrom=${range.dayFrom}&dayTo=${range.dayTo}&grain=month&groupBy=schoolId&lang=en&view=DataCenter` });
    expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
    expect(response.headers['content-disposition']).toMatch(/filename="DataCenter-DataCenterPayments-\d{4}-\d{2}-\d{2}\.xlsx"/);
    expect(decodeURIComponent(String(response.headers['content-disposition']).split("UTF-8''")[1]!)).toMatch(/^Data center-Revenue and refunds-\d{4}-\d{2}-\d{2}\.xlsx$/);
    const sheet = await readWorkbook(response);
    expect(sheet.getRow(1).values).toEqual([undefined, 'School', 'Payments', 'Paid', 'Refunds', 'Refunded', 'Net']);
    expect(sheet.rowCount).toBe(shown.items.length + 2);
    const last = sheet.getRow(sheet.rowCount);
    expect(last.getCell(1).value).toBe('Total');
    expect(last.getCell(3).value).toBe(shown.totals.paid! / 100);
    expect(typeof sheet.getRow(2).getCell(2).value).toBe('number');
  });

  it('answers bad filters with the error envelope', async () => {
    const bad = async (query: string, path: string) => {
      const response = await t.injectAs(admin, { method: 'GET', url: `/api/DataCenterRecognitions/GetSummary?${query}` });
      expect(response.statusCode, query).toBe(400);
      const body = response.json();
      expect(body.code).toBe(400);
      expect(body.data.errors.map((error: { path: string }) => error.path), query).toContain(path);
    };
    await bad('dayFrom=2026-03-10&dayTo=2026-03-01', 'dayTo');
    await bad('dayFrom=2024-01-01&dayTo=2026-03-01&grain=day', 'dayFrom');
    await bad('dayFrom=not-a-day', 'dayFrom');
    await bad('grain=year', 'grain');
    await bad('groupBy=agentId', 'groupBy.0');
    await bad('schoolId=abc', 'schoolId');
    const search = await t.injectAs(admin, { method: 'POST', url: '/api/DataCenterDevices/Search', payload: { pageIndex: 1, pageSize: 20, unknown: 1 } });
    expect(search.statusCode).toBe(400);
  });

});
