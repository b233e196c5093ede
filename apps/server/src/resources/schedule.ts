/** The date window of an operations row (a notice, a poster, a startup page) runs forwards. */
import { badRequest, msg } from '../platform/errors.js';
import type { Row } from './engine/context.js';
import { valueAfter } from './engine/lookup.js';

/** Refuses an end date before the start date, as a field error on the end. */
export function checkDateWindow(values: Row, existing: Row | undefined, startField = 'startDate', endField = 'endDate'): void {
  const start = valueAfter(values, existing, startField);
  const end = valueAfter(values, existing, endField);
  if (start && end && String(end) < String(start)) throw badRequest([{ path: endField, ...msg('schedule.endBeforeStart') }]);
}
