import { describe, expect, it } from 'vitest';
import { addDays, formatBusinessDate, formatBusinessDateTime, formatDuration } from './time.js';

describe('business time', () => {
  it('shows instants in Shanghai time whatever the machine zone', () => {
    expect(formatBusinessDate('2026-03-31T17:30:00Z')).toBe('2026-04-01');
    expect(formatBusinessDateTime('2026-03-31T17:30:05Z')).toBe('2026-04-01 01:30');
    expect(formatBusinessDateTime(new Date('2026-03-31T17:30:05Z'), { seconds: true })).toBe('2026-04-01 01:30:05');
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
