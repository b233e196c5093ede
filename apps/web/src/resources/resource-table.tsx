/**
 * The table of a family's list (react-admin's datagrid): the data columns the settings show, the row
 * buttons, selection for the batch buttons, and paging and sort driven by the list controller.
 */
import { DEFAULT_PAGE_SIZE } from '@campus/contract';
import { Table, type TableProps } from 'antd';
import { useLocale, useT } from '../lib/i18n';
import type { ResourceColumn } from './columns';
import type { ResourceRow } from './resource-api';
import { RowActions, rowActionsWidth } from './row-actions';
import { rowActionsFor } from './transitions';
import type { RecordActions } from './use-record-actions';
import type { ResourceList } from './use-resource-list';
import type { TableSettingsState } from './use-table-settings';

const PAGE_SIZE_OPTIONS = [10, 20, 50, 100, 200];

interface ResourceTableProps {
  list: ResourceList;
  /** The data columns; those hidden in the settings are left out. */
  columns: readonly ResourceColumn[];
  settings: Pick<TableSettingsState, 'hiddenColumns' | 'density'>;
  /** The row buttons; none = no operations column. */
  actions?: Pick<RecordActions, 'items' | 'run'>;
}

export function ResourceTable({ list, columns: dataColumns, settings, actions }: ResourceTableProps) {
  const t = useT();
  const locale = useLocale();
  const { def, paging, buttons } = list;
  const actionItems = actions?.items ?? [];
  const columns: ResourceColumn[] = [
    ...dataColumns.filter((column) => !settings.hiddenColumns.has(column.key)),
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

  // Rows are selected only for a batch button to act on.
  const isSelectable = buttons.batchDelete || buttons.toggles.length > 0;
  return (
    <Table<ResourceRow>
      rowKey="id"
      size={settings.density}
      columns={columns}
      dataSource={list.rows}
      loading={list.search.isFetching}
      scroll={{ x: 'max-content' }}
      onChange={onChange}
      rowSelection={
        isSelectable
          ? { selectedRowKeys: list.selectedIds, onChange: (keys) => list.setSelectedIds(keys.map(Number)), preserveSelectedRowKeys: true }
          : undefined
      }
      pagination={{
        current: paging.pageIndex,
        pageSize: paging.pageSize,
        total: list.total,
        showSizeChanger: true,
        pageSizeOptions: PAGE_SIZE_OPTIONS,
        showTotal: (total) =>
          t(list.isTotalCapped ? 'resource.totalCapped' : 'resource.total', { total: total.toLocaleString(locale === 'en' ? 'en-US' : 'zh-CN') }),
      }}
    />
  );
}
