/**
 * Whether a school has school on a day: the national calendar (weekends, public holidays, weekends
 * worked in lieu) first, then the school's own rows and the rows for all schools (holidayManage): a
 * vacation or holiday takes days away, a make-up school day gives one back and wins over both. Figures
 * that count school days (attendance rates) read them here, never by counting weekdays.
 */
import { SCHOOL_HOLIDAY_MAKE_UP_DAY } from '@campus/contract';
import { and, eq, gte, inArray, isNull, lte, or } from 'drizzle-orm';
import { schoolHolidays } from '../db/schema/resources.js';
import type { Executor } from '../db/client.js';
import { isNationalWorkday } from './national-calendar.js';

const DAY_MS = 86_400_000;
/** The longest range counted at once: a caller asking more is asking for something else. */
const MAX_RANGE_DAYS = 3660;

interface SchoolDayRule {
  kind: number;
  startDate: string;
  endDate: string;
}

/** The school's own rows and the all-schools rows overlapping [from, to]. */
async function rulesOf(db: Executor, schoolId: number, from: string, to: string): Promise<SchoolDayRule[]> {
  return db
    .select({ kind: schoolHolidays.kind, startDate: schoolHolidays.startDate, endDate: schoolHolidays.endDate })
    .from(schoolHolidays)
    .where(and(or(eq(schoolHolidays.schoolId, schoolId), isNull(schoolHolidays.schoolId)), lte(schoolHolidays.startDate, to), gte(schoolHolidays.endDate, from))) as Promise<SchoolDayRule[]>;
}

function decide(day: string, rules: readonly SchoolDayRule[]): boolean {
  const covering = rules.filter((rule) => rule.startDate <= day && day <= rule.endDate);
  if (covering.some((rule) => rule.kind === SCHOOL_HOLIDAY_MAKE_UP_DAY)) return true;
  if (covering.length > 0) return false;
  return isNationalWorkday(day);
}

function daysOf(from: string, to: string): string[] {
  const start = Date.parse(`${from}T00:00:00Z`);
  const end = Date.parse(`${to}T00:00:00Z`);
  if (Number.isNaN(start) || Number.isNaN(end)) throw new RangeError(`not a date range: ${from}..${to}`);
  if ((end - start) / DAY_MS > MAX_RANGE_DAYS) throw new RangeError(`range longer than ${MAX_RANGE_DAYS} days: ${from}..${to}`);
  const days: string[] = [];
  for (let time = start; time <= end; time += DAY_MS) days.push(new Date(time).toISOString().slice(0, 10));
  return days;
}

/** Whether the school has school on `day` (YYYY-MM-DD). */
export async function isSchoolDay(db: Executor, schoolId: number, day: string): Promise<boolean> {
  return decide(day, await rulesOf(db, schoolId, day, day));
}

/** The school's school days from `from` to `to` (YYYY-MM-DD, both included), in order; one query. */
export async function schoolDaysBetween(db: Executor, schoolId: number, from: string, to: string): Promise<string[]> {
  if (from > to) return [];
  const days = daysOf(from, to);
  const rules = await rulesOf(db, schoolId, from, to);
  return days.filter((day) => decide(day, rules));
}

/**
 * Decides many schools' days at once (the attendance rollups): one query for the rows of the given
 * schools (every school when `schoolIds` is null) and the all-schools rows overlapping [from, to].
 */
export async function schoolDayDecider(db: Executor, schoolIds: readonly number[] | null, from: string, to: string): Promise<(schoolId: number, day: string) => boolean> {
  const overlapping = and(lte(schoolHolidays.startDate, to), gte(schoolHolidays.endDate, from));
  const rows = (await db
    .select({ schoolId: schoolHolidays.schoolId, kind: schoolHolidays.kind, startDate: schoolHolidays.startDate, endDate: schoolHolidays.endDate })
    .from(schoolHolidays)
    .where(schoolIds === null ? overlapping : and(overlapping, or(isNull(schoolHolidays.schoolId), inArray(schoolHolidays.schoolId, [...schoolIds, 0]))))) as (SchoolDayRule & { schoolId: number | null })[];
  const common = rows.filter((row) => row.schoolId === null);
  const bySchool = new Map<number, SchoolDayRule[]>();
  for (const row of rows) if (row.schoolId !== null) bySchool.set(row.schoolId, [...(bySchool.get(row.schoolId) ?? common), row]);
  return (schoolId, day) => decide(day, bySchool.get(schoolId) ?? common);
}
