/**
 * holidayManage: a school's own vacations, extra days off and make-up school days, or one row for all
 * schools (no school). The national calendar (public holidays and the weekends worked in their place)
 * comes from the `chinese-days` package and is read-only; the server's `isSchoolDay` combines the two.
 */
import { z } from 'zod';
import { defineResource, type EnumOption } from './define.js';
import { periodFields, schoolRef } from './common.js';

/** What a row makes of its days: no school (vacation, holiday) or school on a day that had none. */
export const SCHOOL_HOLIDAY_KIND_OPTIONS = [
  { value: 1, zh: '假期', en: 'Vacation', color: 'blue' },
  { value: 2, zh: '节假日', en: 'Holiday', color: 'green' },
  { value: 3, zh: '调休上课', en: 'Make-up school day', color: 'orange' },
] as const satisfies readonly EnumOption[];
export const SCHOOL_HOLIDAY_MAKE_UP_DAY = 3;
/** The longest range one row covers: a school year. */
export const SCHOOL_HOLIDAY_MAX_DAYS = 366;

export const SchoolHoliday = defineResource({
  name: 'SchoolHoliday',
  label: { zh: '节假日', en: 'Holiday' },
  table: 'school_holidays',
  views: [{ frame: 'holidayManage' }],
  scope: { via: 'school', field: 'schoolId' },
  titleField: 'name',
  defaultSort: { field: 'startDate', order: 'desc' },
  fields: {
    // Empty: the row applies to every school (company staff only: other callers must name one of theirs).
    schoolId: schoolRef({ required: false, help: { zh: '不选则适用于所有学校', en: 'Leave empty for every school' } }),
    name: { kind: 'text', label: { zh: '名称', en: 'Name' }, required: true, max: 50, filter: 'name', width: 160 },
    kind: { kind: 'enum', options: SCHOOL_HOLIDAY_KIND_OPTIONS, label: { zh: '类型', en: 'Kind' }, required: true, filter: 'equals', width: 120 },
    ...periodFields({ sortable: 'both', endLabel: 'To', maxDays: SCHOOL_HOLIDAY_MAX_DAYS }),
    remark: { kind: 'textarea', label: { zh: '备注', en: 'Remark' }, max: 200, list: false },
  },
  indexes: [['schoolId', 'startDate', 'endDate']],
});

export const NATIONAL_CALENDAR_PATH = '/api/SchoolHoliday/NationalCalendar';
/** The years the national calendar package knows (it is updated when the State Council publishes a year). */
export const NATIONAL_CALENDAR_FIRST_YEAR = 2004;

export const nationalCalendarQuerySchema = z.object({ year: z.coerce.number().int().min(NATIONAL_CALENDAR_FIRST_YEAR).max(2100) });

/** `holiday`: a public holiday (no work, no school); `workday`: a weekend day worked in its place. */
export const nationalDaySchema = z.object({
  date: z.string(),
  kind: z.enum(['holiday', 'workday']),
  name: z.object({ zh: z.string(), en: z.string() }),
});
export type NationalDay = z.infer<typeof nationalDaySchema>;
export const nationalCalendarSchema = z.object({
  year: z.number().int(),
  /** False when the package has no data for the year yet: weekends alone then decide. */
  isKnown: z.boolean(),
  days: z.array(nationalDaySchema),
});
export type NationalCalendar = z.infer<typeof nationalCalendarSchema>;
