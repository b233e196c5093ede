/**
 * A date range cut into the fewest rollup rows per school: whole months and whole weeks (Monday to
 * Sunday) where a coarser rollup holds them, single days for the rest. Each piece lies inside one
 * period of the grain the report groups by, so summing the pieces per period gives that period's
 * figures exactly (docs/decisions.md "Coarser rollups for long ranges").
 */
import type { ReportGrain } from '@campus/contract';

export interface PeriodPieces {
  /** First days (YYYY-MM-DD) of the whole months. */
  months: string[];
  /** Mondays of the whole weeks. */
  weeks: string[];
  /** The days no whole week or month covers. */
  days: string[];
}

/** Days (YYYY-MM-DD) as a PostgreSQL array literal, for `= any(…::date[])` over a range's pieces. */
export const dateArrayText = (days: readonly string[]) => `{${days.join(',')}}`;

const DAY_MS = 86_400_000;
const msOf = (day: string) => Date.parse(`${day}T00:00:00Z`);
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const addDays = (day: string, n: number) => dayOf(msOf(day) + n * DAY_MS);
const monthEnd = (day: string) => {
  const d = new Date(msOf(day));
  return dayOf(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0));
};
const isMonday = (day: string) => new Date(msOf(day)).getUTCDay() === 1;
const isFirst = (day: string) => day.endsWith('-01');

/** The last day of the period of `grain` that `day` falls in. */
function periodEnd(day: string, grain: ReportGrain): string {
  if (grain === 'day') return day;
  if (grain === 'week') return addDays(day, (7 - new Date(msOf(day)).getUTCDay()) % 7);
  return monthEnd(day);
}

/**
 * The pieces of [from, to] (YYYY-MM-DD, both included) when the rows are grouped by `grain` (null:
 * not grouped by period, the range is one whole). A week is used only inside a week or coarser
 * period, a month only inside a month or the whole range; a week that would swallow the start of a
 * whole month is left to days so the month can be read as one row.
 */
export function periodPieces(from: string, to: string, grain: ReportGrain | null): PeriodPieces {
  const pieces: PeriodPieces = { months: [], weeks: [], days: [] };
  const useWeeks = grain !== 'day';
  const useMonths = grain === 'month' || grain === null;
  for (let start = from; start <= to; ) {
    const bucketEnd = grain === null ? to : periodEnd(start, grain);
    const end = bucketEnd < to ? bucketEnd : to;
    for (let cursor = start; cursor <= end; ) {
      if (useMonths && isFirst(cursor) && monthEnd(cursor) <= end) {
        pieces.months.push(cursor);
        cursor = addDays(monthEnd(cursor), 1);
        continue;
      }
      const weekEnd = addDays(cursor, 6);
      if (useWeeks && isMonday(cursor) && weekEnd <= end) {
        const nextMonth = addDays(monthEnd(cursor), 1);
        const swallowsMonth = useMonths && nextMonth <= weekEnd && monthEnd(nextMonth) <= end;
        if (!swallowsMonth) {
          pieces.weeks.push(cursor);
          cursor = addDays(weekEnd, 1);
          continue;
        }
      }
      pieces.days.push(cursor);
      cursor = addDays(cursor, 1);
    }
    start = addDays(end, 1);
  }
  return pieces;
}
