import { REPORTS } from '@campus/contract';
import { describe, expect, it } from 'vitest';
import { buildFilterPayload } from '../resources/list/filter-payload';
import { initialValuesOf } from './report-values';

const TransactionStatistics = REPORTS.TransactionStatistics!;

describe('initialValuesOf', () => {
  it("ends a report's default range on today in China, so today's payments are in it", () => {
    // 01:00 on the 27th in Shanghai is still the 26th in the suite's zone (America/New_York).
    const values = initialValuesOf(TransactionStatistics, new Date('2026-11-27T01:00:00+08:00'));
    expect(buildFilterPayload({ fields: TransactionStatistics.filters }, values)).toMatchObject({ dayFrom: '2026-11-01', dayTo: '2026-11-27' });
  });
});

describe('the web suite', () => {
  it("runs in a zone far from China's, so a date taken from the browser's clock fails it", () => {
    expect(new Date('2026-11-27T01:00:00+08:00').getDate()).toBe(26);
  });
});
