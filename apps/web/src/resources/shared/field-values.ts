/** Wire ↔ display conversions of single field values: money, dates and times. */
import dayjs, { type Dayjs } from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';
import { DATE_FORMAT, TIME_ZONE, formatBusinessDateTime } from '@campus/contract';

dayjs.extend(utc);
dayjs.extend(timezone);

export const DATETIME_FORMAT = 'YYYY-MM-DD HH:mm';
const WALL_CLOCK_FORMAT = 'YYYY-MM-DD HH:mm:ss';

/** Integer cents (the wire) → yuan (forms and cells). */
export function centsToYuan(cents: number): number {
  return cents / 100;
}

/** Yuan typed in a form → integer cents; rounding absorbs float noise such as 0.1 + 0.2. */
export function yuanToCents(yuan: number): number {
  return Math.round(yuan * 100);
}

/** Cents shown as yuan with two decimals and thousands separators: 123456 → "1,234.56". */
export function formatMoney(cents: number): string {
  return centsToYuan(cents).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

/** An ISO instant shown in Asia/Shanghai as 'YYYY-MM-DD HH:mm', whatever the browser's zone. */
export function formatDateTime(iso: string): string {
  return Number.isNaN(Date.parse(iso)) ? iso : formatBusinessDateTime(iso);
}

/**
 * Pickers work on the browser's clock, but staff mean Shanghai time: an instant becomes a picker
 * value showing Shanghai wall-clock time, and a picker value is read back as Shanghai wall-clock time.
 */
export function instantToPickerValue(iso: string): Dayjs {
  return dayjs(dayjs(iso).tz(TIME_ZONE).format(WALL_CLOCK_FORMAT));
}

/**
 * Now as a picker value: Shanghai's wall-clock time, so "today", default ranges and week starts are
 * China's days whatever the browser's zone (a staff member abroad, a laptop set to UTC).
 */
export function businessNow(now: Date = new Date()): Dayjs {
  return instantToPickerValue(now.toISOString());
}

export function pickerValueToInstant(value: Dayjs): string {
  return dayjs.tz(value.format(WALL_CLOCK_FORMAT), TIME_ZONE).toISOString();
}

export function dateToPickerValue(date: string): Dayjs {
  return dayjs(date, DATE_FORMAT);
}

export function pickerValueToDate(value: Dayjs): string {
  return value.format(DATE_FORMAT);
}

export function isDayjs(value: unknown): value is Dayjs {
  return dayjs.isDayjs(value);
}
