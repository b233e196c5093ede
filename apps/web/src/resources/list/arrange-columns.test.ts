import { describe, expect, it } from 'vitest';
import { arrangeColumns, clampColumnWidth } from './arrange-columns';
import type { ResourceColumn } from './columns';
import { DEFAULT_TABLE_SETTINGS, movedOrder } from './use-table-settings';

const columns: ResourceColumn[] = ['id', 'name', 'phone', 'school', 'state'].map((key) => ({ key, title: key, width: 100 }));
const keysAndPins = (arranged: ResourceColumn[]) => arranged.map((column) => `${column.key}${column.fixed ? `:${column.fixed}` : ''}`);

describe('arrangeColumns', () => {
  it('pins the first column by default, so a row stays recognisable while the table scrolls sideways', () => {
    expect(keysAndPins(arrangeColumns(columns, DEFAULT_TABLE_SETTINGS))).toEqual(['id:left', 'name', 'phone', 'school', 'state']);
  });

  it('hides, orders, sizes and pins as saved; pinned columns move to their edge; new columns go last', () => {
    const arranged = arrangeColumns(columns, { hidden: ['phone'], order: ['state', 'name', 'gone'], widths: { name: 260 }, pinned: { school: 'left', id: 'right' } });
    expect(keysAndPins(arranged)).toEqual(['school:left', 'state', 'name', 'id:right']);
    expect(arranged.find((column) => column.key === 'name')?.width).toBe(260);
  });

  it('moves a column one place among the current ones, starting from the declared order', () => {
    const keys = columns.map((column) => column.key);
    expect(movedOrder([], keys, 'school', -1)).toEqual(['id', 'name', 'school', 'phone', 'state']);
    expect(movedOrder(['state', 'id'], keys, 'state', -1)).toEqual(['state', 'id', 'name', 'phone', 'school']);
  });

  it('keeps widths within the bounds the server accepts', () => {
    expect([clampColumnWidth(3), clampColumnWidth(120.4), clampColumnWidth(9999)]).toEqual([40, 120, 1200]);
  });
});
