import { FRAMES, MAX_PAGE_SIZE, PENDING_LIST_FILTERS, familiesOfFrame } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Home-page pending links (issue 11): a badge's page opened with its pending filters lists exactly
 * the rows the badge counts, for every account type that sees the badge.
 */
describe('pending links: the filtered list holds as many rows as the badge counts', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const linked = Object.entries(PENDING_LIST_FILTERS).map(([index, filters]) => ({ frame: FRAMES.find((f) => f.index === index)!, filters: filters! }));

  it.each(['admin', 'agent1', 'agent2'])('as %s', async (loginName) => {
    const token = await t.loginAs(loginName);
    const counts = (await t.injectAs(token, { method: 'GET', url: '/api/Home/GetBadgeCounts' })).json().data as Record<string, number>;
    const compared: string[] = [];
    for (const { frame, filters } of linked) {
      const count = counts[frame.badge!];
      if (count === undefined) continue; // the caller does not hold the page
      const def = familiesOfFrame(frame.index)[0]!;
      const answer = await t.injectAs(token, { method: 'POST', url: `/api/${def.name}/Search?view=${frame.index}`, payload: { ...filters, pageIndex: 1, pageSize: 10 } });
      expect(answer.statusCode, answer.body).toBe(200);
      const data = answer.json().data as { total?: number; items: unknown[]; hasMore?: boolean };
      // Log pages (fever alerts) answer no count: read the rows instead.
      const total = data.total ?? (await allRows(token, def.name, frame.index, filters));
      expect(total, `${loginName}: ${frame.index} ${JSON.stringify(filters)} (badge ${frame.badge})`).toBe(count);
      compared.push(frame.index);
    }
    if (loginName === 'admin') expect(compared).toEqual(expect.arrayContaining(['deviceInformation', 'equipmentMaintenance', 'schoolMerchantsManage']));
  });

  async function allRows(token: string, family: string, view: string, filters: object): Promise<number> {
    const answer = await t.injectAs(token, { method: 'POST', url: `/api/${family}/Search?view=${view}`, payload: { ...filters, pageSize: MAX_PAGE_SIZE } });
    expect(answer.statusCode, answer.body).toBe(200);
    const data = answer.json().data as { items: unknown[]; hasMore: boolean };
    expect(data.hasMore).toBe(false);
    return data.items.length;
  }

  it('lists none of the counted rows when asked for the others', async () => {
    const token = await t.loginAs('admin');
    const pending = await t.injectAs(token, { method: 'POST', url: '/api/Device/Search?view=deviceInformation', payload: { licensePending: true, pageSize: MAX_PAGE_SIZE } });
    const others = await t.injectAs(token, { method: 'POST', url: '/api/Device/Search?view=deviceInformation', payload: { licensePending: false, pageSize: MAX_PAGE_SIZE } });
    const all = await t.injectAs(token, { method: 'POST', url: '/api/Device/Search?view=deviceInformation', payload: { pageSize: MAX_PAGE_SIZE } });
    for (const answer of [pending, others, all]) expect(answer.statusCode, answer.body).toBe(200);
    const ids = (answer: typeof all) => answer.json().data.items as { id: number; licenseKey: string | null }[];
    expect(ids(pending).every((row) => row.licenseKey === null)).toBe(true);
    expect(ids(pending).length + ids(others).length).toBe(ids(all).length);
    const split = await t.injectAs(token, { method: 'POST', url: '/api/ServiceConfig/Search?view=schoolMerchantsManage', payload: { splitRuleSet: true, pageSize: MAX_PAGE_SIZE } });
    const unsplit = await t.injectAs(token, { method: 'POST', url: '/api/ServiceConfig/Search?view=schoolMerchantsManage', payload: { splitRuleSet: false, pageSize: MAX_PAGE_SIZE } });
    const merchants = await t.injectAs(token, { method: 'POST', url: '/api/ServiceConfig/Search?view=schoolMerchantsManage', payload: { pageSize: MAX_PAGE_SIZE } });
    expect(split.json().data.total + unsplit.json().data.total).toBe(merchants.json().data.total);
    expect(unsplit.json().data.total).toBeGreaterThan(0);
  });
});
