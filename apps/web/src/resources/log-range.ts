/** The time range of a log list: preset to the last 7 days, with today / 7 days / 30 days presets. */
import { DEFAULT_LOG_DAYS } from '@campus/contract';
import dayjs, { type Dayjs } from 'dayjs';

export type LogRange = [Dayjs, Dayjs];

/** The last `days` days up to the end of today. */
export function lastDays(days: number, now: Dayjs = dayjs()): LogRange {
  return [now.subtract(days - 1, 'day').startOf('day'), now.endOf('day')];
}

/** The range a log list opens with, as the server's default (the last 7 days). */
export const defaultLogRange = (now?: Dayjs): LogRange => lastDays(DEFAULT_LOG_DAYS, now);

/** The Search filters of a range of the time field. */
export function rangeFilters(timeField: string, range: LogRange | null): Record<string, string> {
  if (!range) return {};
  return { [`${timeField}From`]: range[0].toISOString(), [`${timeField}To`]: range[1].toISOString() };
}
