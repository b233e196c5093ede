/**
 * Holiday rules (holidayManage): a row's range runs forwards and covers at most a school year; the
 * read-only national calendar beside the school's rows (GET /api/SchoolHoliday/NationalCalendar).
 */
import { NATIONAL_CALENDAR_PATH, SCHOOL_HOLIDAY_MAX_DAYS, SchoolHoliday, nationalCalendarQuerySchema, nationalCalendarSchema } from '@campus/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../platform/envelope.js';
import { badRequest, msg } from '../platform/errors.js';
import { nationalCalendarOf } from '../platform/national-calendar.js';
import { requireFrame } from '../platform/permissions.js';
import { documentedCall } from '../platform/route-docs.js';
import { defineFamilyModule } from './engine/modules.js';
import { valueAfter } from './engine/lookup.js';

const DAY_MS = 86_400_000;

export const nationalCalendarRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    NATIONAL_CALENDAR_PATH,
    {
      onRequest: requireFrame('holidayManage'),
      schema: {
        ...documentedCall(SchoolHoliday.name, 'NationalCalendar', "China's public holidays and the weekends worked in their place, of one year", nationalCalendarSchema),
        querystring: nationalCalendarQuerySchema,
      },
    },
    async (request) => ok(nationalCalendarOf(request.query.year)),
  );
};

export const schoolHolidayModule = defineFamilyModule(SchoolHoliday, {
  routes: [nationalCalendarRoutes],
  beforeWrite(_ctx, { values, existing }) {
    const start = String(valueAfter(values, existing, 'startDate'));
    const end = String(valueAfter(values, existing, 'endDate'));
    if (end < start) throw badRequest([{ path: 'endDate', ...msg('holiday.endBeforeStart') }]);
    const days = (Date.parse(end) - Date.parse(start)) / DAY_MS + 1;
    if (days > SCHOOL_HOLIDAY_MAX_DAYS) throw badRequest([{ path: 'endDate', ...msg('holiday.tooLong', { days: SCHOOL_HOLIDAY_MAX_DAYS }) }]);
    return values;
  },
});
