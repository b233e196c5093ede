/**
 * holidayManage's call besides its family's (whose range rules are declared): the read-only national
 * calendar beside the school's rows (GET /api/SchoolHoliday/NationalCalendar).
 */
import { NATIONAL_CALENDAR_PATH, SchoolHoliday, nationalCalendarQuerySchema, nationalCalendarSchema } from '@campus/contract';
import { nationalCalendarOf } from '../platform/national-calendar.js';
import { familyCall } from './engine/calls.js';
import { defineFamilyModule } from './engine/modules.js';

export const nationalCalendarRoutes = familyCall(
  { tag: SchoolHoliday.name, verb: 'NationalCalendar', path: NATIONAL_CALENDAR_PATH, access: { frame: 'holidayManage' }, summary: "China's public holidays and the weekends worked in their place, of one year", query: nationalCalendarQuerySchema, answer: nationalCalendarSchema },
  ({ query }) => nationalCalendarOf(query.year),
);

export const schoolHolidayModule = defineFamilyModule(SchoolHoliday, { routes: [nationalCalendarRoutes] });
