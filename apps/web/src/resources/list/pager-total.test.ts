import { SEARCH_COUNT_CAP } from '@campus/contract';
import { describe, expect, it } from 'vitest';
import { pagerTotal } from './resource-table';

const list = (total: number, isTotalCapped: boolean, hasMore: boolean, pageIndex = 1, pageSize = 20) => ({ total, isTotalCapped, hasMore, paging: { pageIndex, pageSize } });

describe('pagerTotal', () => {
  it('pages over an exact total as it is', () => {
    expect(pagerTotal(list(37, false, true))).toBe(37);
    expect(pagerTotal(list(37, false, false, 2))).toBe(37);
  });

  it('lets the reader page past a lower bound while more rows follow', () => {
    // "500+": page 25 of 20 rows holds rows 481–500, and more follow.
    expect(pagerTotal(list(500, true, true))).toBe(500);
    expect(pagerTotal(list(500, true, true, 25))).toBe(501);
    expect(pagerTotal(list(500, true, true, 26))).toBe(521);
    expect(pagerTotal(list(500, true, false, 25))).toBe(500);
  });

  it('never pages past the count cap the server holds to', () => {
    expect(pagerTotal(list(SEARCH_COUNT_CAP, true, true, 500))).toBe(SEARCH_COUNT_CAP);
    expect(pagerTotal(list(37_000, false, true))).toBe(SEARCH_COUNT_CAP);
  });
});
