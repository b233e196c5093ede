/** The time range of a log list: preset to the family's window (7 days unless declared), with today / 7 days / 30 days presets. */
import { DEFAULT_LOG_DAYS, type ResourceDef } from '@campus/contract';
import type { Dayjs } from 'dayjs';
import { businessNow, pickerValueToInstant } from '../shared/field-values';

export type LogRange = [Dayjs, Dayjs];

/** The last `days` days up to the end of today, as Shanghai wall-clock picker values. */
export function lastDays(days: number, now: Dayjs = businessNow()): LogRange {
  return [now.subtract(days - 1, 'day').startOf('day'), now.endOf('day')];
}

/**
 * The range a log list opens with: the days the family declares as its default window, as the
 * server's default (the SMS outbox opens on today's codes, payments on 30 days, most logs on 7).
 * @example defaultLogRange(SmsOutbox) // today, 00:00 to 23:59:59
 */
export const defaultLogRange = (def: Pick<ResourceDef, 'log'>, now?: Dayjs): LogRange => lastDays(def.log?.defaultDays ?? DEFAULT_LOG_DAYS, now);

/** The Search filters of a range of the time field: its picker values read as Shanghai wall-clock times. */
export function rangeFilters(timeField: string, range: LogRange | null): Record<string, string> {
  if (!range) return {};
  const to = new Date(Date.parse(pickerValueToInstant(range[1])) + 999).toISOString();
  return { [`${timeField}From`]: pickerValueToInstant(range[0]), [`${timeField}To`]: to };
}
