import type { Clock } from '../../src/platform/clock.js';

export interface TestClock extends Clock {
  advance(milliseconds: number): void;
}

/** A clock that only moves when told to, so no test depends on the wall clock. */
export function createTestClock(start = new Date('2026-03-02T01:00:00.000Z')): TestClock {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance(milliseconds) {
      current += milliseconds;
    },
  };
}
