/**
 * A list's filters, sort and page in the address bar (issue 11): the query string of a list page is
 * its Search request without the view's fixed values, so a shared link or the back button restores
 * the same rows. Filters keep their wire names (`schoolName`, `createdAtFrom`); paging and sort use
 * the Search names, which no filter shares.
 */
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type FieldDef, type ResourceDef } from '@campus/contract';
import type { FilterPayload, FilterValue } from './filter-payload';
import { centsToYuan, dateToPickerValue, instantToPickerValue } from '../shared/field-values';
import type { SortState } from '../shared/resource-api';

export interface ListUrlState {
  filters: FilterPayload;
  pageIndex: number;
  /** Absent: the user's saved page size (or the default) applies. */
  pageSize?: number;
  sort: SortState;
}

/** The query string of a list state: filters in declaration order, then page, size and sort. Page 1 and no sort are left out. */
export function listStateToSearch(state: ListUrlState): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(state.filters)) {
    if (Array.isArray(value)) for (const item of value) params.append(name, String(item));
    else params.set(name, String(value));
  }
  if (state.pageIndex > 1) params.set('pageIndex', String(state.pageIndex));
  if (state.pageSize !== undefined) params.set('pageSize', String(state.pageSize));
  if (state.sort.sortField && state.sort.sortOrder) {
    params.set('sortField', state.sort.sortField);
    params.set('sortOrder', state.sort.sortOrder);
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

function isNumericField(field: FieldDef): boolean {
  if (field.kind === 'number' || field.kind === 'money') return true;
  if (field.kind === 'reference') return field.key === undefined;
  if (field.kind === 'enum') return field.options.every((option) => typeof option.value === 'number');
  return false;
}

/** One value of the address bar typed as the field's filter expects it; null when it cannot be one. */
function decodeScalar(field: FieldDef, text: string): string | number | boolean | null {
  if (field.kind === 'bool') return text === 'true' ? true : text === 'false' ? false : null;
  if (isNumericField(field)) {
    const number = Number(text);
    return text.trim() !== '' && Number.isFinite(number) ? number : null;
  }
  return text;
}

function positiveInteger(text: string | null, max: number): number | undefined {
  if (text === null) return undefined;
  const number = Number(text);
  return Number.isInteger(number) && number >= 1 && number <= max ? number : undefined;
}

/**
 * The list state a query string asks for. Only the family's declared filters are read (a link cannot
 * send what the filter bar could not), values are typed by field kind, and anything malformed is
 * dropped rather than sent to the server.
 * @example listStateFromSearch(School, '?schoolName=Sun&pageIndex=2') // { filters: { schoolName: 'Sun' }, pageIndex: 2, sort: {} }
 */
export function listStateFromSearch(def: Pick<ResourceDef, 'fields'>, search: string, hiddenFields: ReadonlySet<string> = new Set()): ListUrlState {
  const params = new URLSearchParams(search);
  const filters: FilterPayload = {};
  for (const [name, field] of Object.entries(def.fields)) {
    if (!field.filter || hiddenFields.has(name)) continue;
    if (field.filter === 'range') {
      for (const end of ['From', 'To'] as const) {
        const text = params.get(`${name}${end}`);
        const value = text === null ? null : decodeScalar(field, text);
        if (value !== null && typeof value !== 'boolean') filters[`${name}${end}`] = value;
      }
    } else if (field.filter === 'in') {
      const values = params
        .getAll(name)
        .map((text) => decodeScalar(field, text))
        .filter((value): value is string | number => value !== null && typeof value !== 'boolean');
      if (values.length > 0) filters[name] = values;
    } else {
      const text = params.get(name);
      const value = text === null || text.trim() === '' ? null : decodeScalar(field, text);
      if (value !== null) filters[name] = value;
    }
  }
  const sortField = params.get('sortField');
  const sortOrder = params.get('sortOrder');
  const isSortable = sortField !== null && def.fields[sortField]?.sortable === true && (sortOrder === 'asc' || sortOrder === 'desc');
  return {
    filters,
    pageIndex: positiveInteger(params.get('pageIndex'), 1_000_000) ?? 1,
    pageSize: positiveInteger(params.get('pageSize'), MAX_PAGE_SIZE),
    sort: isSortable ? { sortField, sortOrder } : {},
  };
}

/** Whether a query string says anything about the list (else the page keeps its own defaults). */
export function hasListState(search: string): boolean {
  return new URLSearchParams(search).size > 0;
}

/** The page size a list shows: the address bar's, else the user's saved one, else the default. */
export function effectivePageSize(fromUrl: number | undefined, saved: number | undefined): number {
  return fromUrl ?? saved ?? DEFAULT_PAGE_SIZE;
}

/**
 * The filter bar's values for filters Search was sent (the inverse of `buildFilterPayload`): ranges
 * back to picker pairs, cents back to yuan, filters not sent back to their defaults (the "All" values). Used when a link, the back button or a saved view sets
 * the filters.
 */
export function filterFormValuesOf(def: Pick<ResourceDef, 'fields'>, filters: FilterPayload, defaults: Readonly<Record<string, unknown>> = {}): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  const display = (field: FieldDef, value: FilterValue | undefined): unknown => {
    if (value === undefined) return undefined;
    if (field.kind === 'money' && typeof value === 'number') return centsToYuan(value);
    if (field.kind === 'date' && typeof value === 'string') return dateToPickerValue(value);
    if (field.kind === 'datetime' && typeof value === 'string') return instantToPickerValue(value);
    return value;
  };
  for (const [name, field] of Object.entries(def.fields)) {
    if (!field.filter) continue;
    if (field.filter === 'range') {
      const from = display(field, filters[`${name}From`]);
      const to = display(field, filters[`${name}To`]);
      values[name] = from === undefined && to === undefined ? defaults[name] : [from ?? null, to ?? null];
    } else {
      values[name] = display(field, filters[name]) ?? defaults[name];
    }
  }
  return values;
}
