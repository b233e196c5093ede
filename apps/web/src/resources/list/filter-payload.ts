/** From the filter bar's form values to the filters a Search or Export sends. */
import { ADDRESS_PLACEHOLDERS, type FieldDef, type ResourceDef } from '@campus/contract';
import type { Dayjs } from 'dayjs';
import { isDayjs, pickerValueToDate, pickerValueToInstant, yuanToCents } from '../shared/field-values';

/** A filter value on the wire: scalars, or a list for `in` filters. */
export type FilterValue = string | number | boolean | (string | number)[];
export type FilterPayload = Record<string, FilterValue>;

/**
 * True when a filter value means "no filter": blank, the family's "All" value (the seed's -1 / 0),
 * or a province/city/area placeholder (SEED-SPEC section 5). Such filters are never sent.
 */
export function isEmptyFilterValue(field: FieldDef, value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string' && value.trim() === '') return true;
  if (field.filterAll !== undefined && String(value) === String(field.filterAll)) return true;
  return field.kind === 'region' && (ADDRESS_PLACEHOLDERS as readonly string[]).includes(String(value).trim());
}

function scalarOf(field: FieldDef, value: unknown): string | number | boolean {
  if (field.kind === 'money' && typeof value === 'number') return yuanToCents(value);
  if (typeof value === 'string') return value.trim();
  if (isDayjs(value)) return field.kind === 'date' ? pickerValueToDate(value) : pickerValueToInstant(value);
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  return String(value);
}

/** One end of a range: whole days for date pickers (a datetime range covers the end day entirely). */
function rangeEndOf(field: FieldDef, value: unknown, end: 'from' | 'to'): string | number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (isDayjs(value)) {
    if (field.kind === 'date') return pickerValueToDate(value);
    if (end === 'from') return pickerValueToInstant(value.startOf('day'));
    // The last millisecond of the day: the start of the next day, less one.
    const nextDay: Dayjs = value.add(1, 'day').startOf('day');
    return new Date(Date.parse(pickerValueToInstant(nextDay)) - 1).toISOString();
  }
  const scalar = scalarOf(field, value);
  return typeof scalar === 'boolean' ? undefined : scalar;
}

/**
 * The Search/Export filters of a filter bar's values: empty, "All" and placeholder values are
 * dropped; a range `[from, to]` becomes `nameFrom` / `nameTo`; money is sent in cents.
 * @example buildFilterPayload(School, { schoolName: ' Sun ', state: -1 }) // { schoolName: 'Sun' }
 */
export function buildFilterPayload(def: Pick<ResourceDef, 'fields'>, values: Record<string, unknown>): FilterPayload {
  const payload: FilterPayload = {};
  for (const [name, field] of Object.entries(def.fields)) {
    if (!field.filter) continue;
    const value = values[name];
    if (field.filter === 'range') {
      const [from, to] = Array.isArray(value) ? value : [];
      const fromValue = rangeEndOf(field, from, 'from');
      const toValue = rangeEndOf(field, to, 'to');
      if (fromValue !== undefined) payload[`${name}From`] = fromValue;
      if (toValue !== undefined) payload[`${name}To`] = toValue;
    } else if (field.filter === 'in') {
      const list = (Array.isArray(value) ? value : [value])
        .filter((item) => !isEmptyFilterValue(field, item))
        .map((item) => scalarOf(field, item))
        .filter((item): item is string | number => typeof item !== 'boolean');
      if (list.length > 0) payload[name] = list;
    } else if (!isEmptyFilterValue(field, value)) {
      payload[name] = scalarOf(field, value);
    }
  }
  return payload;
}

/** The filter bar's starting values: the family's search defaults (e.g. School's "All" values). */
export function initialFilterValues(def: ResourceDef): Record<string, unknown> {
  return { ...def.searchDefaults };
}
