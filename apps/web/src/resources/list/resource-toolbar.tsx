/**
 * The toolbar above a family's table: add, delete selected, the batch toggles, export, what is
 * selected, and the table settings. Each button is a part of its own, so a page can lay out a toolbar
 * of its own from them; `ResourceToolbar` is the usual one, and takes extra buttons as children.
 */
import { DeleteOutlined, ExportOutlined, PlusOutlined } from '@ant-design/icons';
import { batchVerbOf } from '@campus/contract';
import { App, Button, Space, Typography } from 'antd';
import type { ReactNode } from 'react';
import { SubmitButton } from '../../components/submit-button';
import { useLocale, useT } from '../../lib/i18n';
import { showToast } from '../../lib/toast';
import type { ResourceColumn } from './columns';
import { ImportButton } from '../import/import-button';
import { labelText, toggleValuesOf } from '../shared/labels';
import { orderedColumns } from './arrange-columns';
import { TableSettings } from './table-settings';
import type { ResourceList } from './use-resource-list';
import type { TableSettingsState } from './use-table-settings';

interface ListPartProps {
  list: ResourceList;
}

/** Shown to callers holding `add`. */
export function AddButton({ list, onAdd }: ListPartProps & { onAdd: () => void }) {
  const t = useT();
  if (!list.buttons.add) return null;
  return (
    <Button type="primary" icon={<PlusOutlined />} onClick={onAdd}>
      {t('resource.add')}
    </Button>
  );
}

/** Deletes the selected rows after a confirmation; shown to callers holding `delete`. */
export function BatchDeleteButton({ list }: ListPartProps) {
  const t = useT();
  if (!list.buttons.batchDelete) return null;
  const { selectedIds } = list;
  return (
    <Button
      danger
      icon={<DeleteOutlined />}
      disabled={selectedIds.length === 0}
      onClick={() => list.confirmDelete(selectedIds, t('resource.deleteConfirm', { count: selectedIds.length, family: list.familyLabel }))}
    >
      {t('resource.batchDelete')}
    </Button>
  );
}

/** "Set on" / "Set off" for the selection, per declared toggle the caller may switch; "off" asks first. */
export function BatchToggleButtons({ list }: ListPartProps) {
  const t = useT();
  const locale = useLocale();
  const { selectedIds } = list;
  const buttons = list.buttons.toggles.flatMap((toggleDef) => {
    const field = list.def.fields[toggleDef.field];
    if (!field) return [];
    const values = toggleValuesOf(field);
    return [
      { value: values.on, text: values.onText(locale) },
      { value: values.off, text: values.offText(locale) },
    ].map(({ value, text }) => (
      <SubmitButton key={`${toggleDef.field}:${String(value)}`} disabled={selectedIds.length === 0} onClick={() => list.confirmToggle(selectedIds, toggleDef.field, value)}>
        {t('resource.batchSet', { value: text })}
      </SubmitButton>
    ));
  });
  // The toolbar's Space spaces its children, and this list is one child: its buttons get their own gaps.
  return buttons.length > 0 ? <Space wrap>{buttons}</Space> : null;
}

/**
 * One button per batch transition the caller may run (`TransitionDef.batch`, none asking a required
 * field): it moves the selected rows together after a confirmation; the server refuses the whole
 * batch (409 naming the row) when one of them is in another state, and the toast says so.
 */
export function BatchTransitionButtons({ list }: ListPartProps) {
  const t = useT();
  const locale = useLocale();
  const { modal } = App.useApp();
  const { selectedIds } = list;
  const transitions = list.buttons.batchTransitions;
  if (transitions.length === 0) return null;
  return (
    <Space wrap>
      {transitions.map((transition) => {
        const action = labelText(transition.label, locale);
        const run = async () => {
          const ids = [...selectedIds];
          await list.api.batchTransition(batchVerbOf(transition), ids);
          showToast('success', t('resource.batchTransitionDone', { action, count: ids.length }));
          list.setSelectedIds([]);
          await list.refresh();
        };
        return (
          <Button
            key={transition.verb}
            danger={transition.danger}
            disabled={selectedIds.length === 0}
            onClick={() =>
              modal.confirm({
                title: t('resource.batchTransition', { action }),
                content: t('resource.batchTransitionConfirm', { action, count: selectedIds.length, family: list.familyLabel }),
                okText: t('common.ok'),
                cancelText: t('common.cancel'),
                okButtonProps: { danger: transition.danger },
                onOk: () => run().catch(() => undefined),
              })
            }
          >
            {t('resource.batchTransition', { action })}
          </Button>
        );
      })}
    </Space>
  );
}

/** What the export button needs of a list: the generic list, or a page's own (the log's). */
export interface ExportSource {
  buttons: { export: boolean };
  exporter: { isRunning: boolean };
  startExport: () => void;
}

/** Exports the current filters (asking first when the count is capped); shown to callers holding `export`. */
export function ExportButton({ list }: { list: ExportSource }) {
  const t = useT();
  if (!list.buttons.export) return null;
  return (
    <Button icon={<ExportOutlined />} loading={list.exporter.isRunning} onClick={list.startExport}>
      {t('resource.export')}
    </Button>
  );
}

/** "3 selected · Clear", while anything is selected. */
export function SelectionText({ list }: ListPartProps) {
  const t = useT();
  if (list.selectedIds.length === 0) return null;
  return (
    <Typography.Text type="secondary">
      {t('resource.selected', { count: list.selectedIds.length })}
      <Button type="link" size="small" onClick={() => list.setSelectedIds([])}>
        {t('resource.clearSelection')}
      </Button>
    </Typography.Text>
  );
}

/** Refresh, density and the shown columns of the list's table. */
export function ListTableSettings({ list, columns, settings }: ListPartProps & { columns: readonly ResourceColumn[]; settings: TableSettingsState }) {
  return (
    <TableSettings
      columns={orderedColumns(columns, settings.order).map((column) => ({ key: column.key, title: String(column.title) }))}
      {...settings}
      onRefresh={() => void list.search.refetch()}
      isRefreshing={list.search.isFetching}
    />
  );
}

interface ResourceToolbarProps extends ListPartProps {
  onAdd: () => void;
  /** The data columns, named in the column settings. */
  columns: readonly ResourceColumn[];
  settings: TableSettingsState;
  /** A family's own buttons, after export. */
  children?: ReactNode;
}

/** The toolbar's frame, shared by the list, log and tree pages: buttons at the start, the table's tools at the end. */
export function ListToolbar({ children, end }: { children: ReactNode; end?: ReactNode }) {
  return (
    <div className="resource-toolbar">
      <Space wrap>{children}</Space>
      {end}
    </div>
  );
}

export function ResourceToolbar({ list, onAdd, columns, settings, children }: ResourceToolbarProps) {
  return (
    <ListToolbar end={<ListTableSettings list={list} columns={columns} settings={settings} />}>
      <AddButton list={list} onAdd={onAdd} />
      <BatchDeleteButton list={list} />
      <BatchToggleButtons list={list} />
      <BatchTransitionButtons list={list} />
      <ExportButton list={list} />
      <ImportButton list={list} />
      {children}
      <SelectionText list={list} />
    </ListToolbar>
  );
}
