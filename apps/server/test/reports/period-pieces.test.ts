/**
 * periodPieces: a range cut into whole months, whole weeks and days covers every day once, and no
 * piece crosses a period of the grain it is grouped by (else a week would be summed into two months).
 */
import type { ReportGrain } from '@campus/contract';
import { describe, expect, it } from 'vitest';
import { periodPieces } from '../../src/reports/period-pieces.js';

const DAY_MS = 86_400_000;
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
const monthDays = (first: string) => {
  const days: string[] = [];
  for (let day = first; day.slice(0, 7) === first.slice(0, 7); day = addDays(day, 1)) days.push(day);
  return days;
};
const weekDays = (monday: string) => Array.from({ length: 7 }, (_, i) => addDays(monday, i));
/** The period of `grain` a day falls in, as SQL's date_trunc names it (weeks start on Monday). */
const periodOf = (day: string, grain: ReportGrain | null) => {
  if (grain === null) return 'all';
  if (grain === 'day') return day;
  if (grain === 'month') return `${day.slice(0, 7)}-01`;
  return addDays(day, -((new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7));
};

describe('periodPieces', () => {
  it('reads 90 days by month as two whole months, three whole weeks and the days at both ends', () => {
    expect(periodPieces('2026-08-31', '2026-11-28', 'month')).toEqual({
      months: ['2026-09-01', '2026-10-01'],
      weeks: ['2026-11-02', '2026-11-09', '2026-11-16'],
      days: ['2026-08-31', '2026-11-01', '2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28'],
    });
    // By week, a month is never read whole; by day, every day is a piece.
    expect(periodPieces('2026-08-31', '2026-11-28', 'week').months).toEqual([]);
    expect(periodPieces('2026-08-31', '2026-11-28', 'day')).toMatchObject({ months: [], weeks: [] });
  });

  it('covers every day of a range once, each piece inside one period of the grain, whatever the range', () => {
    for (const grain of ['day', 'week', 'month', null] as const) {
      for (let start = 0; start < 70; start += 3) {
        for (const length of [1, 6, 7, 13, 29, 31, 45, 91, 200]) {
          const from = addDays('2026-01-01', start);
          const to = addDays(from, length - 1);
          const pieces = periodPieces(from, to, grain);
          const groups = [...pieces.months.map(monthDays), ...pieces.weeks.map(weekDays), ...pieces.days.map((day) => [day])];
          const covered = groups.flat().sort();
          expect(covered, `${grain} ${from}..${to}`).toEqual(Array.from({ length }, (_, i) => addDays(from, i)));
          for (const group of groups) expect(new Set(group.map((day) => periodOf(day, grain))).size).toBe(1);
        }
      }
    }
  });
});
