import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { students } from '../../src/db/schema/index.js';
import { COUNT_MAX_AGE_MS, countOrBound, countPlanOf, roundBoundDown, roundedEstimate } from '../../src/resources/engine/search-counts.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { grantEverything, schoolLike, schoolIdsOf, unique } from './fixtures.js';

/**
 * A Search's total is counted once per filter set and kept briefly (engine/search-counts.ts): page
 * turns reuse it, any write answered by the server drops it, and a page that is not full answers
 * the exact total without counting.
 */
let t: TestApp;
let agent1: string;
let schoolId: number;

beforeAll(async () => {
  t = await createTestApp();
  await grantEverything(t, 'agent1');
  agent1 = await t.loginAs('agent1');
  // A school of its own: nothing else in the suite adds students to it.
  schoolId = await schoolLike(t, (await schoolIdsOf(t, 'agent1'))[0]!);
});
afterAll(() => t.close());

const search = async (body: Record<string, unknown>) => {
  const response = await t.injectAs(agent1, { method: 'POST', url: '/api/Student/Search', payload: { schoolId, ...body } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as { items: { id: number }[]; total: number; totalIsCapped: boolean; totalIsEstimate: boolean; hasMore: boolean };
};
/** A student written straight to the database, as a job or another instance would: no API write to drop the counts. */
const insertBehindTheApi = (name: string) => t.db.insert(students).values({ schoolId, name });

describe('Search totals', () => {
  it('reuses the count on a page turn, and answers the exact total on a page that is not full', async () => {
    for (let i = 0; i < 3; i += 1) await insertBehindTheApi(`计数${unique()}`);
    expect(await search({ pageSize: 2 })).toMatchObject({ total: 3, totalIsCapped: false, totalIsEstimate: false, hasMore: true });
    await insertBehindTheApi(`计数${unique()}`);
    // Page 1 of 2 is full: the total is the one counted a moment ago.
    const kept = await search({ pageSize: 2 });
    expect(kept.items).toHaveLength(2);
    expect(kept.total).toBe(3);
    // Page 2 of 2 has nothing after it: it ends the result, so its total is exact without a count.
    expect(await search({ pageSize: 2, pageIndex: 2 })).toMatchObject({ total: 4, hasMore: false });
    // A page of 20 is not full: it is the end of the result, so its total is exact.
    const whole = await search({ pageSize: 20 });
    expect(whole).toMatchObject({ total: 4, totalIsCapped: false });
    expect(whole.items).toHaveLength(4);
    // And that exact total is what the next full page answers.
    expect((await search({ pageSize: 2 })).total).toBe(4);
  });

  it('counts again after a write the server answers', async () => {
    const before = (await search({ pageSize: 1 })).total;
    const added = await t.injectAs(agent1, { method: 'POST', url: '/api/Student/Add', payload: { schoolId, name: `新生${unique()}` } });
    expect(added.statusCode, added.body).toBe(200);
    expect((await search({ pageSize: 1 })).total).toBe(before + 1);
    const deleted = await t.injectAs(agent1, { method: 'POST', url: '/api/Student/BatchDelete', payload: [added.json().data.id] });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect((await search({ pageSize: 1 })).total).toBe(before);
  });

  it('counts again once the kept count is older than its age limit', async () => {
    const before = (await search({ pageSize: 1 })).total;
    await insertBehindTheApi(`计数${unique()}`);
    expect((await search({ pageSize: 1 })).total).toBe(before);
    t.clock.advance(COUNT_MAX_AGE_MS);
    expect((await search({ pageSize: 1 })).total).toBe(before + 1);
  });

  it('keeps counts per filter set', async () => {
    const name = `独有${unique()}`;
    await insertBehindTheApi(name);
    await insertBehindTheApi(`${name}二`);
    expect((await search({ name, pageSize: 1 })).total).toBe(2);
    expect((await search({ name: `${name}二`, pageSize: 1 })).total).toBe(1);
  });
});

describe('Search totals past the count cost limit', () => {
  let estimating: TestApp;
  let token: string;
  let ownSchool: number;
  beforeAll(async () => {
    // Limit 0: no full page is counted; its total is what the page proves.
    estimating = await createTestApp({ env: { SEARCH_COUNT_COST_LIMIT: '0' } });
    await grantEverything(estimating, 'agent1');
    token = await estimating.loginAs('agent1');
    ownSchool = await schoolLike(estimating, (await schoolIdsOf(estimating, 'agent1'))[0]!);
    for (let i = 0; i < 5; i += 1) await estimating.db.insert(students).values({ schoolId: ownSchool, name: `估计${unique()}` });
  });
  afterAll(() => estimating.close());

  const searchIn = async (body: Record<string, unknown>) => {
    const response = await estimating.injectAs(token, { method: 'POST', url: '/api/Student/Search', payload: { schoolId: ownSchool, ...body } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as { items: unknown[]; total: number; totalIsEstimate: boolean; hasMore: boolean; totalIsCapped: boolean };
  };

  it('answers what the page proves as "more than", never an estimate', async () => {
    const page = await searchIn({ pageSize: 2 });
    expect(page).toMatchObject({ total: 2, totalIsEstimate: false, totalIsCapped: true, hasMore: true });
    expect(page.items).toHaveLength(2);
    // The bound kept from page 1 grows with what a later page proves.
    expect(await searchIn({ pageSize: 2, pageIndex: 2 })).toMatchObject({ total: 4, totalIsCapped: true, hasMore: true });
  });

  it('answers the exact total on the page that ends the result', async () => {
    expect(await searchIn({ pageSize: 2, pageIndex: 3 })).toMatchObject({ total: 5, totalIsEstimate: false, hasMore: false });
    expect(await searchIn({ pageSize: 20 })).toMatchObject({ total: 5, totalIsEstimate: false, hasMore: false });
  });
});

describe('count plans', () => {
  it('reads the cost and the rows under the LIMIT from EXPLAIN', () => {
    const explained = [{ Plan: { 'Node Type': 'Aggregate', 'Total Cost': 34129.7, 'Plan Rows': 1, Plans: [{ 'Node Type': 'Limit', 'Plan Rows': 3276, Plans: [{ 'Node Type': 'Gather', 'Plan Rows': 3276 }] }] } }];
    expect(countPlanOf(explained)).toEqual({ cost: 34129.7, rows: 3276 });
    expect(countPlanOf(JSON.stringify(explained))).toEqual({ cost: 34129.7, rows: 3276 });
    expect(countPlanOf([{ Plan: { 'Node Type': 'Result', 'Total Cost': 1 } }])).toBeUndefined();
  });

  it('rounds a bound down to 1, 2 or 5 times a power of ten', () => {
    expect([0.5, 1, 7, 99, 100, 754, 1_465, 2_000, 9_999].map(roundBoundDown)).toEqual([0, 1, 5, 50, 100, 500, 1_000, 2_000, 5_000]);
  });

  /** A planner and a count over `matches` rows whose cost grows by `perRow` for each row a count must find. */
  const counting = (matches: number, perRow: number) => {
    const asked: number[] = [];
    return {
      asked,
      estimateIsNear: false,
      plan: async (cap: number) => ({ cost: 10 + perRow * Math.min(cap + 1, matches), rows: matches }),
      count: async (cap: number) => {
        asked.push(cap);
        return Math.min(cap + 1, matches);
      },
    };
  };

  it('counts in full when the planner finds it cheap', async () => {
    const cheap = counting(37_324, 0.1);
    expect(await countOrBound(cheap, 5000, 20)).toEqual({ total: 10_001, totalIsCapped: false, totalIsEstimate: false });
    expect(cheap.asked).toEqual([10_000]);
  });

  it('counts to a lower bound when the full count is dear, and answers "more than" it or the exact count', async () => {
    // 6.6 per row: the full count costs 66,000 (a name part at 1M students), 500 rows fit in 5,000.
    const many = counting(37_324, 6.6);
    expect(await countOrBound(many, 5000, 20)).toEqual({ total: 500, totalIsCapped: true, totalIsEstimate: false });
    expect(many.asked).toEqual([500]);
    // Fewer matches than the bound: the count is the exact total.
    const few = { ...counting(300, 6.6), plan: async (cap: number) => ({ cost: cap === 10_000 ? 66_000 : 10 + 6.6 * 301, rows: 300 }) };
    expect(await countOrBound(few, 5000, 20)).toEqual({ total: 300, totalIsCapped: false, totalIsEstimate: false });
  });

  it('answers the planner\'s estimate, labelled, only where it is known to be near', async () => {
    const near = { ...counting(37_324, 6.6), estimateIsNear: true };
    // The plan's rows are the planner's estimate of the matches: 37,324 here, rounded to two digits.
    expect(await countOrBound(near, 5000, 20)).toEqual({ total: 37_000, totalIsCapped: false, totalIsEstimate: true });
    const dear = { ...counting(37_324, 1000), estimateIsNear: true };
    expect(await countOrBound(dear, 5000, 20)).toMatchObject({ totalIsEstimate: true });
  });

  it('answers what the page proves when even a small count is dear', async () => {
    const dear = counting(37_324, 1000);
    expect(await countOrBound(dear, 5000, 40)).toEqual({ total: 40, totalIsCapped: true, totalIsEstimate: false });
    expect(dear.asked).toEqual([]);
  });

  it('rounds an estimate to two significant digits', () => {
    expect([7, 99, 3276, 36_842, 125_000].map(roundedEstimate)).toEqual([7, 99, 3300, 37_000, 130_000]);
  });
});
