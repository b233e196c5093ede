/**
 * The table every list draws — the generic page's, the log page's and the tree page's: rows keyed by
 * id, scrolled sideways when wide, and a failed read shown as its error with a retry in place of the
 * rows, never "no data". Each page adds its own columns, paging and row behaviour.
 */
import { Table, type TableProps } from 'antd';
import { useLayoutEffect, useRef } from 'react';
import type { ResourceRow } from '../shared/resource-api';
import { SearchFailed } from './search-failed';

export interface ListTableProps<Row extends ResourceRow> extends Omit<TableProps<Row>, 'rowKey' | 'dataSource' | 'loading' | 'locale' | 'scroll'> {
  rows: readonly Row[];
  isLoading: boolean;
  /** The last read failed: no stale rows, its error and a retry instead. */
  failure?: { error: unknown; onRetry: () => void } | null;
}

const FOCUSABLE = 'a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])';

/** The shared table of the list, log and tree pages. */
export function ListTable<Row extends ResourceRow>({ rows, isLoading, failure, className, ...table }: ListTableProps<Row>) {
  const frame = useRef<HTMLDivElement>(null);
  // A table wider than the page scrolls sideways; with no row to tab into (an empty list) the keyboard
  // could not reach that scroll, so the scrolling box itself becomes a tab stop until rows arrive.
  useLayoutEffect(() => {
    const box = frame.current?.querySelector<HTMLElement>('.ant-table-content');
    if (!box) return;
    const unreachable = box.scrollWidth > box.clientWidth && !box.querySelector(FOCUSABLE);
    if (unreachable) box.setAttribute('tabindex', '0');
    else if (box.getAttribute('tabindex') === '0') box.removeAttribute('tabindex');
  });
  return (
    <div ref={frame}>
      <Table<Row>
        rowKey="id"
        className={className ? `resource-table ${className}` : 'resource-table'}
        dataSource={failure ? [] : rows}
        loading={isLoading}
        locale={failure ? { emptyText: <SearchFailed error={failure.error} onRetry={failure.onRetry} /> } : undefined}
        scroll={{ x: 'max-content' }}
        {...table}
      />
    </div>
  );
}
