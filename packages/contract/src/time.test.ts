import { describe, expect, it } from 'vitest';
import { addDays, businessWallClock, formatBusinessDate, formatBusinessDateTime, formatDuration } from './time.js';

describe('business time', () => {
  it('shows instants in Shanghai time whatever the machine zone', () => {
    expect(formatBusinessDate('2026-03-31T17:30:00Z')).toBe('2026-04-01');
    expect(formatBusinessDateTime('2026-03-31T17:30:05Z')).toBe('2026-04-01 01:30');
    expect(formatBusinessDateTime(new Date('2026-03-31T17:30:05Z'), { seconds: true })).toBe('2026-04-01 01:30:05');
  });
});

describe('businessWallClock', () => {
  const asText = (date: Date) => date.toISOString().slice(0, 19).replace('T', ' ');

  it('reads as the Shanghai wall time to the second, as the formatted text does, across the history of the zone', () => {
    const instants = [
      '2026-03-31T17:30:05.999Z', // the next day in Shanghai, milliseconds dropped
      '2026-11-28T15:59:59.500Z',
      '1992-01-01T00:00:00Z',
      '1991-12-31T15:59:59Z', // the last second before the fixed-offset path
      '1988-07-01T12:00:00Z', // a daylight saving summer: UTC+9
      '1988-01-01T12:00:00Z',
      '1969-07-20T20:17:40Z',
    ];
    for (const instant of instants) {
      expect(asText(businessWallClock(new Date(instant))), instant).toBe(formatBusinessDateTime(instant, { seconds: true }));
    }
    expect(asText(businessWallClock(new Date('1988-07-01T12:00:00Z')))).toBe('1988-07-01 21:00:00');
  });
});

describe('formatBusinessDate', () => {
  it("gives Shanghai's date as Intl does, either side of its midnight and of 1992, and refuses an invalid instant", () => {
    const intl = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Shanghai', year: 'numeric', month: '2-digit', day: '2-digit' });
    const instants = ['2026-11-28T15:59:59.999Z', '2026-11-28T16:00:00Z', '2024-02-28T16:00:00Z', '1991-12-31T15:59:59Z', '1988-07-01T15:30:00Z', '9999-06-01T00:00:00Z'];
    for (let i = 0; i < 200; i += 1) instants.push(new Date(Date.UTC(1992, 0, 1) + i * 123_456_789_013).toISOString());
    for (const instant of instants) expect(formatBusinessDate(instant), instant).toBe(intl.format(new Date(instant)));
    expect(() => formatBusinessDate('not a date')).toThrow(RangeError);
  });
});

describe('formatDuration', () => {
  it('shows minutes and seconds, and hours once there are any', () => {
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(184)).toBe('3:04');
    expect(formatDuration(3599.6)).toBe('1:00:00');
    expect(formatDuration(3723)).toBe('1:02:03');
  });
});

describe('addDays', () => {
  it('steps over month and year ends, and back', () => {
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-11-29', -29)).toBe('2026-10-31');
  });
});
