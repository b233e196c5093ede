/**
 * The table every list draws — the generic page's, the log page's and the tree page's: rows keyed by
 * id, scrolled sideways when wide, and a failed read shown as its error with a retry in place of the
 * rows, never "no data". Each page adds its own columns, paging and row behaviour.
 */
import { Table, type TableProps } from 'antd';
import type { ResourceRow } from '../shared/resource-api';
import { SearchFailed } from './search-failed';

export interface ListTableProps<Row extends ResourceRow> extends Omit<TableProps<Row>, 'rowKey' | 'dataSource' | 'loading' | 'locale' | 'scroll'> {
  rows: readonly Row[];
  isLoading: boolean;
  /** The last read failed: no stale rows, its error and a retry instead. */
  failure?: { error: unknown; onRetry: () => void } | null;
}

/** The shared table of the list, log and tree pages. */
export function ListTable<Row extends ResourceRow>({ rows, isLoading, failure, className, ...table }: ListTableProps<Row>) {
  return (
    <Table<Row>
      rowKey="id"
      className={className ? `resource-table ${className}` : 'resource-table'}
      dataSource={failure ? [] : rows}
      loading={isLoading}
      locale={failure ? { emptyText: <SearchFailed error={failure.error} onRetry={failure.onRetry} /> } : undefined}
      scroll={{ x: 'max-content' }}
      {...table}
    />
  );
}
