/**
 * holidayManage's call besides its family's (whose range rules are declared): the read-only national
 * calendar beside the school's rows (GET /api/SchoolHoliday/NationalCalendar).
 */
import { NATIONAL_CALENDAR_PATH, SchoolHoliday, nationalCalendarQuerySchema, nationalCalendarSchema } from '@campus/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../platform/envelope.js';
import { nationalCalendarOf } from '../platform/national-calendar.js';
import { requireFrame } from '../platform/permissions.js';
import { documentedCall } from '../platform/route-docs.js';
import { defineFamilyModule } from './engine/modules.js';

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

export const schoolHolidayModule = defineFamilyModule(SchoolHoliday, { routes: [nationalCalendarRoutes] });
