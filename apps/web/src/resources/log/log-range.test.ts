import { LoginLog, PaymentRecord, RESOURCES } from '@campus/contract';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { businessNow } from '../shared/field-values';
import { defaultLogRange, lastDays, rangeFilters } from './log-range';

const SmsOutbox = RESOURCES.SmsOutbox!;
const NOW = dayjs('2026-11-26T15:20:00+08:00');
const days = ([from, to]: [dayjs.Dayjs, dayjs.Dayjs]) => [from.format('YYYY-MM-DD HH:mm:ss'), to.format('YYYY-MM-DD HH:mm:ss')];

describe('defaultLogRange', () => {
  it("opens a log on the window its family declares: the SMS outbox on today's codes, payments on 30 days", () => {
    expect(days(defaultLogRange(SmsOutbox, NOW))).toEqual([NOW.format('YYYY-MM-DD 00:00:00'), NOW.format('YYYY-MM-DD 23:59:59')]);
    expect(days(defaultLogRange(PaymentRecord, NOW))[0]).toBe(NOW.subtract(29, 'day').format('YYYY-MM-DD 00:00:00'));
  });

  it('opens on the last 7 days when the family declares no window', () => {
    expect(days(defaultLogRange({ log: { timeField: 'createdAt' } }, NOW))[0]).toBe(NOW.subtract(6, 'day').format('YYYY-MM-DD 00:00:00'));
    expect(days(defaultLogRange(LoginLog, NOW))[0]).toBe(NOW.subtract(6, 'day').format('YYYY-MM-DD 00:00:00'));
  });
});

describe('rangeFilters', () => {
  it("bounds the range by China's days whatever the browser's zone", () => {
    // 01:00 on the 27th in Shanghai is still the 26th in the suite's zone (America/New_York).
    const now = businessNow(new Date('2026-11-27T01:00:00+08:00'));
    expect(rangeFilters('createdAt', lastDays(1, now))).toEqual({ createdAtFrom: '2026-11-26T16:00:00.000Z', createdAtTo: '2026-11-27T15:59:59.999Z' });
    expect(rangeFilters('createdAt', defaultLogRange(LoginLog, now)).createdAtFrom).toBe('2026-11-20T16:00:00.000Z');
  });
});
