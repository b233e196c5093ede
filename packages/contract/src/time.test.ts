import { describe, expect, it } from 'vitest';
import { formatBusinessDate, formatBusinessDateTime } from './time.js';

describe('business time', () => {
  it('shows instants in Shanghai time whatever the machine zone', () => {
    expect(formatBusinessDate('2026-03-31T17:30:00Z')).toBe('2026-04-01');
    expect(formatBusinessDateTime('2026-03-31T17:30:05Z')).toBe('2026-04-01 01:30');
    expect(formatBusinessDateTime(new Date('2026-03-31T17:30:05Z'), { seconds: true })).toBe('2026-04-01 01:30:05');
  });
});
