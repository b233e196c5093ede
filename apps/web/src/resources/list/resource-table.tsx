/**
 * The table of a family's list (react-admin's datagrid): the data columns as the user laid them out
 * (shown, ordered, sized, pinned), the row buttons, selection for the batch buttons, and paging and
 * sort driven by the list controller. A failed Search shows its error with a retry, never "no data".
 */
import { DEFAULT_PAGE_SIZE, SEARCH_COUNT_CAP } from '@campus/contract';
import { Typography, type TableProps } from 'antd';
import { useMemo, type ReactNode } from 'react';
import { formatCount, useLocale, useT } from '../../lib/i18n';
import { arrangeColumns } from './arrange-columns';
import type { ResourceColumn } from './columns';
import { ResizableHeaderCell, type ResizableHeaderProps } from './resizable-header-cell';
import type { ResourceRow } from '../shared/resource-api';
import { RowActions, rowActionsWidth } from './row-actions';
import { ListTable } from './list-table';
import { rowActionsFor } from '../record/transitions';
import type { RecordActions } from '../record/use-record-actions';
import type { ResourceList } from './use-resource-list';
import type { TableSettingsState } from './use-table-settings';

export const PAGE_SIZE_OPTIONS = [10, 20, 50, 100, 200];

const HEADER_COMPONENTS = { header: { cell: ResizableHeaderCell } };

interface ResourceTableProps {
  list: ResourceList;
  /** The data columns; the settings hide, order, size and pin them. */
  columns: readonly ResourceColumn[];
  settings: Pick<TableSettingsState, 'hiddenColumns' | 'density' | 'order' | 'widths' | 'pinned' | 'setWidth'>;
  /** The row buttons (none = no operations column), and the read-only view the first cell opens. */
  actions?: Pick<RecordActions, 'items' | 'run'> & Partial<Pick<RecordActions, 'openView'>>;
}

/** How the total reads: a count, a lower bound ("10,000+", "500+": more than that many), or a report's estimate ("about 37,000"). */
function totalKey(list: Pick<ResourceList, 'isTotalCapped' | 'isTotalEstimate'>) {
  if (list.isTotalEstimate) return 'resource.totalEstimate';
  return list.isTotalCapped ? 'resource.totalCapped' : 'resource.total';
}

/**
 * The rows the pager pages over. Pages end at the count cap (the server refuses deeper ones). A
 * total that is a lower bound ("500+") must still let the reader page past it while more follow.
 */
export function pagerTotal(list: Pick<ResourceList, 'total' | 'isTotalCapped' | 'hasMore' | 'paging'>): number {
  const { pageIndex, pageSize } = list.paging;
  const reachable = list.isTotalCapped && list.hasMore ? Math.max(list.total, pageIndex * pageSize + 1) : list.total;
  return Math.min(reachable, SEARCH_COUNT_CAP);
}

export function ResourceTable({ list, columns: dataColumns, settings, actions }: ResourceTableProps) {
  const t = useT();
  const locale = useLocale();
  const { def, paging, buttons } = list;
  const actionItems = actions?.items ?? [];
  const { hiddenColumns, order, widths, pinned, setWidth } = settings;
  const openView = actions?.openView;
  const arranged = useMemo(
    () =>
      arrangeColumns(dataColumns, { hidden: [...hiddenColumns], order, widths, pinned }).map((column, position) => ({
        ...column,
        // The first cell opens the record read-only: looking never risks changing it. It is a button
        // for the keyboard too (an <a> without href is not focusable).
        ...(position === 0 && openView && column.render && !column.holdsControl
          ? {
              render: (value: unknown, row: ResourceRow, index: number) => (
                <Typography.Link
                  className="record-view-link"
                  role="button"
                  tabIndex={0}
                  onClick={() => openView(row)}
                  onKeyDown={(event) => {
                    if (event.key !== 'Enter' && event.key !== ' ') return;
                    event.preventDefault();
                    openView(row);
                  }}
                >
                  {column.render!(value, row, index) as ReactNode}
                </Typography.Link>
              ),
            }
          : {}),
        // antd passes what onHeaderCell answers to the header cell component as its props.
        onHeaderCell: () =>
          ({
            resizeWidth: typeof column.width === 'number' ? column.width : undefined,
            onResizeWidth: (width: number) => setWidth(column.key, width),
            resizeLabel: t('resource.resizeColumn'),
            resizeName: t('resource.resizeColumnNamed', { column: typeof column.title === 'string' ? column.title : column.key }),
          }) as ResizableHeaderProps,
      })),
    [dataColumns, hiddenColumns, order, widths, pinned, setWidth, t, openView],
  );
  const columns: ResourceColumn[] = [
    ...arranged,
    ...(actions && actionItems.length > 0
      ? [
          {
            key: 'operations',
            title: t('resource.actions'),
            fixed: 'right' as const,
            width: rowActionsWidth(actionItems.length, locale),
            render: (_: unknown, row: ResourceRow) => <RowActions row={row} items={rowActionsFor(def, actionItems, row)} t={t} locale={locale} onRun={actions.run} />,
          },
        ]
      : []),
  ];

  const onChange: TableProps<ResourceRow>['onChange'] = (pagination, _filters, sorter) => {
    const single = Array.isArray(sorter) ? sorter[0] : sorter;
    list.changePage(
      { pageIndex: pagination.current ?? 1, pageSize: pagination.pageSize ?? DEFAULT_PAGE_SIZE },
      single?.order ? { sortField: String(single.columnKey), sortOrder: single.order === 'ascend' ? 'asc' : 'desc' } : {},
    );
  };

  const failure = list.search.isError && !list.search.isFetching ? list.search.error : null;
  // Rows are selected only for a batch button to act on.
  const isSelectable = buttons.batchDelete || buttons.toggles.length > 0 || buttons.batchTransitions.length > 0;
  return (
    <ListTable<ResourceRow>
      size={settings.density}
      columns={columns}
      components={HEADER_COMPONENTS}
      rows={list.rows}
      // Pending covers the wait for the user's saved page size before the first Search starts.
      isLoading={list.search.isFetching || list.search.isPending}
      failure={failure && { error: failure, onRetry: () => void list.search.refetch() }}
      onChange={onChange}
      rowSelection={
        isSelectable
          ? { selectedRowKeys: list.selectedIds, onChange: (keys) => list.setSelectedIds(keys.map(Number)), preserveSelectedRowKeys: true, fixed: 'left' }
          : undefined
      }
      pagination={{
        current: paging.pageIndex,
        pageSize: paging.pageSize,
        total: failure ? 0 : pagerTotal(list),
        showSizeChanger: true,
        pageSizeOptions: PAGE_SIZE_OPTIONS,
        showTotal: () => t(failure ? 'resource.total' : totalKey(list), { total: formatCount(failure ? 0 : list.total, locale) }),
      }}
    />
  );
}
