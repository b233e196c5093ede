/** The holidays page (holidayManage): the school's own days (the generic list), then the national calendar they combine with. */
import { lazy } from 'react';
import type { WebFamilyModule } from '../resource-overrides';

// The calendar downloads with the first holidays page, not with every list.
const NationalCalendarCard = lazy(() => import('./national-calendar-card').then((module) => ({ default: module.NationalCalendarCard })));

export const schoolHolidayModule: WebFamilyModule = {
  family: 'SchoolHoliday',
  Below: NationalCalendarCard,
};
