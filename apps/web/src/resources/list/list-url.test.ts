import { School, type ResourceDef } from '@campus/contract';
import { describe, expect, it } from 'vitest';
import { buildFilterPayload } from './filter-payload';
import { filterFormValuesOf, listStateFromSearch, listStateToSearch } from './list-url';

const def = {
  fields: {
    name: { kind: 'text', label: { zh: '名', en: 'Name' }, filter: 'contains', sortable: true },
    state: { kind: 'enum', label: { zh: '状', en: 'State' }, filter: 'in', options: [{ value: 1, zh: '开', en: 'On' }, { value: 2, zh: '关', en: 'Off' }] },
    amount: { kind: 'money', label: { zh: '额', en: 'Amount' }, filter: 'range' },
    day: { kind: 'date', label: { zh: '日', en: 'Day' }, filter: 'range' },
    enabled: { kind: 'bool', label: { zh: '启', en: 'On' }, filter: 'equals' },
    code: { kind: 'reference', family: 'DeviceClass', display: 'name', key: 'code', label: { zh: '型', en: 'Class' }, filter: 'equals' },
    secret: { kind: 'text', label: { zh: '密', en: 'Secret' } },
  },
} as unknown as ResourceDef;

describe('the list state in the address bar', () => {
  it('round-trips filters of every kind, page, size and sort', () => {
    const state = {
      filters: { name: '王 雨桐', state: [1, 2], amountFrom: 150, amountTo: 990, dayFrom: '2026-01-01', enabled: false, code: 'G3' },
      pageIndex: 3,
      pageSize: 50,
      sort: { sortField: 'name', sortOrder: 'desc' as const },
    };
    const search = listStateToSearch(state);
    expect(search).toBe('?name=%E7%8E%8B+%E9%9B%A8%E6%A1%90&state=1&state=2&amountFrom=150&amountTo=990&dayFrom=2026-01-01&enabled=false&code=G3&pageIndex=3&pageSize=50&sortField=name&sortOrder=desc');
    expect(listStateFromSearch(def, search)).toEqual(state);
  });

  it('leaves page 1, the saved page size and no sort out of the address', () => {
    expect(listStateToSearch({ filters: {}, pageIndex: 1, sort: {} })).toBe('');
  });

  it('drops what the filter bar could not have sent: undeclared or fixed fields, wrong kinds, bad pages and unsortable sorts', () => {
    const state = listStateFromSearch(def, '?secret=x&name=a&state=x&state=2&amountFrom=ten&enabled=maybe&pageIndex=0&pageSize=100000&sortField=secret&sortOrder=asc', new Set(['name']));
    expect(state).toEqual({ filters: { state: [2] }, pageIndex: 1, pageSize: undefined, sort: {} });
  });

  it('gives the filter bar its values back: yuan for cents, pickers for dates, defaults for filters not sent', () => {
    const values = filterFormValuesOf(def, { amountFrom: 150, dayFrom: '2026-01-01', state: [1] }, { enabled: true });
    expect(values.amount).toEqual([1.5, null]);
    expect((values.day as [{ format: (f: string) => string }, null])[0].format('YYYY-MM-DD')).toBe('2026-01-01');
    expect(values.state).toEqual([1]);
    expect(values.enabled).toBe(true);
    // Built back into a Search, the values send the same filters.
    expect(buildFilterPayload(def, values)).toEqual({ amountFrom: 150, dayFrom: '2026-01-01', state: [1], enabled: true });
  });

  it('restores a real family’s “All” defaults when its address names no filter', () => {
    expect(filterFormValuesOf(School, {}, School.searchDefaults ?? {})).toMatchObject({ state: -1, schoolType: 0 });
  });
});
