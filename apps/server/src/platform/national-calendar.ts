/**
 * China's national calendar from the `chinese-days` package: public holidays, and the weekend days
 * worked in their place (调休). Its data ships with the package, so no call leaves the server; a year
 * the package does not know yet has neither, and weekends alone decide.
 */
import chineseDays from 'chinese-days';
import type { NationalCalendar, NationalDay } from '@campus/contract';

/** YYYY-MM-DD of a UTC date. */
const isoDay = (date: Date) => date.toISOString().slice(0, 10);

export function isWeekend(day: string): boolean {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  return weekday === 0 || weekday === 6;
}

/** The national entry of one day, if any: the package names such days "English,中文,n". */
export function nationalDayOf(day: string): NationalDay | undefined {
  const detail = chineseDays.getDayDetail(day);
  const [en, zh] = detail.name.split(',');
  if (!zh || !en) return undefined;
  if (!detail.work) return { date: day, kind: 'holiday', name: { zh, en } };
  // A working day inside a holiday's name is a weekend worked in its place; a weekday needs no entry.
  return isWeekend(day) ? { date: day, kind: 'workday', name: { zh, en } } : undefined;
}

/** Whether the country works on a day: weekdays, unless a public holiday; weekends only when worked in lieu. */
export function isNationalWorkday(day: string): boolean {
  return chineseDays.isWorkday(day);
}

/** Every public holiday and worked weekend of a year, in date order. */
export function nationalCalendarOf(year: number): NationalCalendar {
  const days: NationalDay[] = [];
  for (let date = new Date(Date.UTC(year, 0, 1)); date.getUTCFullYear() === year; date.setUTCDate(date.getUTCDate() + 1)) {
    const entry = nationalDayOf(isoDay(date));
    if (entry) days.push(entry);
  }
  return { year, isKnown: days.length > 0, days };
}
