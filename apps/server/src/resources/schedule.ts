/** The date window of an operations row (a notice, a poster, a startup page) runs forwards; an audience names where it reaches. */
import { POSTER_AUDIENCE_AREA, POSTER_AUDIENCE_SCHOOLS } from '@campus/contract';
import { badRequest, msg } from '../platform/errors.js';
import type { Row } from './engine/context.js';
import { valueAfter } from './engine/lookup.js';

/** Refuses an end date before the start date, as a field error on the end. */
export function checkDateWindow(values: Row, existing: Row | undefined, startField = 'startDate', endField = 'endDate'): void {
  const start = valueAfter(values, existing, startField);
  const end = valueAfter(values, existing, endField);
  if (start && end && String(end) < String(start)) throw badRequest([{ path: endField, ...msg('schedule.endBeforeStart') }]);
}

/**
 * An audience (a poster's, a questionnaire's) names what it reaches: a province for an area, at least
 * one school for chosen schools. On update the stored schools are not in `existing`: an Update that
 * leaves schoolIds out keeps them.
 */
export function checkAudience(values: Row, existing: Row | undefined): void {
  const audience = Number(valueAfter(values, existing, 'audience'));
  if (audience === POSTER_AUDIENCE_AREA && !valueAfter(values, existing, 'province')) throw badRequest([{ path: 'province', ...msg('poster.provinceRequired') }]);
  const schoolIds = values.schoolIds as unknown[] | undefined | null;
  const isSchoolsMissing = schoolIds !== undefined && schoolIds !== null ? schoolIds.length === 0 : existing === undefined || Number(existing.audience) !== POSTER_AUDIENCE_SCHOOLS;
  if (audience === POSTER_AUDIENCE_SCHOOLS && isSchoolsMissing) throw badRequest([{ path: 'schoolIds', ...msg('poster.schoolsRequired') }]);
}
