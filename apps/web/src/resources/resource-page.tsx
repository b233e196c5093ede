/**
 * The generic resource page: filter bar, paged table, add/edit drawer, batch delete, export, toggles
 * and actions, all from one family declaration. Its state (filters, page, selection) lives here; the
 * tab keeps the page mounted, so it survives tab switches without any global store.
 */
import { DeleteOutlined, ExportOutlined, PlusOutlined } from '@ant-design/icons';
import { DEFAULT_PAGE_SIZE, MAX_EXPORT_COUNT, childFamiliesOf, userTypeSchema, type ActionDef, type ResourceDef } from '@campus/contract';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Space, Table, Typography, type TableProps, type TabsProps } from 'antd';
import { useMemo, useState } from 'react';
import { SubmitButton } from '../components/submit-button';
import { useLoginUser } from '../hooks/use-login-user';
import { usePermission } from '../hooks/use-permission';
import { useVisibilityProbes } from '../hooks/use-visibility-probes';
import { useLocale, useT, type Locale } from '../lib/i18n';
import { showToast } from '../lib/toast';
import { ActionModal } from './action-modal';
import { buildColumns, type ResourceColumn } from './columns';
import { FilterBar } from './filter-bar';
import { buildFilterPayload, initialFilterValues, type FilterPayload } from './filter-payload';
import { labelText, toggleValuesOf } from './labels';
import { allowedRowActions, allowedToolbar } from './permissions';
import { RecordDrawer, type DrawerTarget } from './record-drawer';
import { resourceApi, type ResourceRow, type SortState } from './resource-api';
import type { ExtraRowAction, ResourceOverrides } from './resource-overrides';
import { RowActions, rowActionsWidth, type RowActionItem } from './row-actions';
import { TableSettings, type Density } from './table-settings';
import { useExport } from './use-export';
import { rowActionsFor } from './transitions';
import { useWorkflowActions } from './workflow-actions';
import './resource-page.css';

const PAGE_SIZE_OPTIONS = [10, 20, 50, 100, 200];
const NO_FIXED_VALUES: Readonly<Record<string, string | number | boolean>> = {};

export interface ResourcePageProps {
  def: ResourceDef;
  /** The page (view) the family is shown on: its frame's route name, sent as `?view=`. */
  frame: string;
  overrides?: ResourceOverrides;
  /**
   * Values the surrounding page fixes, e.g. the school whose classes a drawer lists: sent with every
   * search, preset on add, and hidden from filters, columns and forms.
   */
  fixedValues?: Readonly<Record<string, string | number | boolean>>;
  /** Shown inside a drawer or modal rather than as a tab's page: a narrower filter bar. */
  isEmbedded?: boolean;
}

export function ResourcePage({ def, frame, overrides, fixedValues = NO_FIXED_VALUES, isEmbedded = false }: ResourcePageProps) {
  const t = useT();
  const locale = useLocale();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const { can } = usePermission(frame);
  const probes = useVisibilityProbes();
  const api = useMemo(() => resourceApi(def.name, frame), [def.name, frame]);
  const familyLabel = labelText(def.label, locale);

  const hiddenFields = useMemo(() => {
    const view = def.views.find((candidate) => candidate.frame === frame);
    return new Set([...Object.keys(view?.fixed ?? {}), ...Object.keys(fixedValues), ...(overrides?.hiddenFields?.(probes) ?? [])]);
  }, [def, frame, fixedValues, overrides, probes]);
  const loginType = userTypeSchema.safeParse(useLoginUser().data?.type);
  const userType = loginType.success ? loginType.data : undefined;
  const formHiddenFields = useMemo(
    () => new Set([...hiddenFields, ...(overrides?.formHiddenFields?.(userType) ?? [])]),
    [hiddenFields, overrides, userType],
  );
  const initialFilters = useMemo(() => initialFilterValues(def), [def]);

  const [filters, setFilters] = useState<FilterPayload>(() => buildFilterPayload(def, initialFilters));
  const [paging, setPaging] = useState({ pageIndex: 1, pageSize: DEFAULT_PAGE_SIZE });
  const [sort, setSort] = useState<SortState>({});
  const [selectedIds, setSelectedIds] = useState<number[]>([]);
  const [hiddenColumns, setHiddenColumns] = useState<Set<string>>(() => new Set());
  const [density, setDensity] = useState<Density>('middle');
  const [drawer, setDrawer] = useState<DrawerTarget | null>(null);
  const [runningAction, setRunningAction] = useState<{ action: ActionDef; row: ResourceRow } | null>(null);
  const [openPanel, setOpenPanel] = useState<{ extra: ExtraRowAction; row: ResourceRow } | null>(null);
  const [togglingIds, setTogglingIds] = useState<ReadonlySet<number>>(() => new Set());

  const searchRequest = { ...filters, ...fixedValues, ...paging, ...sort };
  const search = useQuery({
    queryKey: ['resource', def.name, frame, 'search', searchRequest],
    queryFn: () => api.search(searchRequest),
    // The old page stays on screen while the next one loads: no flash of an empty table.
    placeholderData: keepPreviousData,
  });
  const refreshFamily = () => queryClient.invalidateQueries({ queryKey: ['resource', def.name] });
  const exporter = useExport(api, familyLabel);

  const toolbar = allowedToolbar(def, can);
  const rowTitle = (row: ResourceRow) => String(row[def.titleField] ?? row.id);
  const workflow = useWorkflowActions({ def, api, rowTitle, onChanged: () => void refreshFamily() });

  const toggle = async (ids: number[], field: string, value: unknown) => {
    setTogglingIds((current) => new Set([...current, ...ids]));
    try {
      await api.toggle(field, ids, value);
      if (ids.length > 1) showToast('success', t('resource.toggled', { count: ids.length }));
      await refreshFamily();
    } catch {
      // The request client has shown the failure; the switch stays where the server left it.
    } finally {
      setTogglingIds((current) => new Set([...current].filter((id) => !ids.includes(id))));
    }
  };

  const confirmDelete = (ids: number[], content: string) =>
    modal.confirm({
      title: t('resource.deleteTitle'),
      content,
      okType: 'danger',
      okText: t('resource.delete'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        const { deleted } = await api.batchDelete(ids);
        showToast('success', t('resource.deleted', { count: deleted }));
        setSelectedIds((current) => current.filter((id) => !ids.includes(id)));
        await refreshFamily();
      },
    });

  const runRowAction = (item: RowActionItem, row: ResourceRow) => {
    if ('extra' in item) return setOpenPanel({ extra: item.extra, row });
    const { spec } = item;
    if (spec.kind === 'edit') return setDrawer({ mode: 'edit', row });
    if (spec.kind === 'delete') return confirmDelete([row.id], t('resource.deleteOneConfirm', { family: familyLabel, title: rowTitle(row) }));
    if (spec.kind === 'transition') return workflow.runTransition(spec.transition, row);
    if (spec.kind === 'history') return workflow.showHistory(row);
    const { action } = spec;
    if (action.fields && Object.keys(action.fields).length > 0) return setRunningAction({ action, row });
    const run = async () => {
      await api.runAction(action.verb, { id: row.id });
      showToast('success', t('resource.actionDone', { action: labelText(action.label, locale) }));
      await refreshFamily();
    };
    if (!action.confirm) return void run().catch(() => undefined);
    modal.confirm({ title: labelText(action.label, locale), content: labelText(action.confirm, locale), onOk: run });
  };

  const rowActionItems = useMemo<RowActionItem[]>(() => {
    const specs = allowedRowActions(def, can).map((spec) => ({ spec }));
    const extras = (overrides?.rowActions ?? []).filter((extra) => !extra.button || can(extra.button)).map((extra) => ({ extra }));
    // Extra actions sit before delete, which stays last.
    const deleteIndex = specs.findIndex((item) => item.spec.kind === 'delete');
    return deleteIndex < 0 ? [...specs, ...extras] : [...specs.slice(0, deleteIndex), ...extras, ...specs.slice(deleteIndex)];
  }, [def, can, overrides]);

  const dataColumns = useMemo(() => {
    const built = buildColumns(def, {
      locale,
      hideAmountColumns: probes?.hideAmountColumns ?? false,
      hiddenFields,
      sort,
      toggles: toolbar.toggles,
      onToggle: (row, field, value) => void toggle([row.id], field, value),
      togglingIds,
    });
    return overrides?.columns ? overrides.columns(built, { locale, t }) : built;
    // `toggle` and `toolbar` are rebuilt each render from stable inputs listed here.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [def, locale, probes?.hideAmountColumns, hiddenFields, sort, togglingIds, can, overrides, t]);

  const columns: ResourceColumn[] = [
    ...dataColumns.filter((column) => !hiddenColumns.has(column.key)),
    ...(rowActionItems.length > 0
      ? [
          {
            key: 'operations',
            title: t('resource.actions'),
            fixed: 'right' as const,
            width: rowActionsWidth(rowActionItems.length, locale),
            render: (_: unknown, row: ResourceRow) => <RowActions row={row} items={rowActionsFor(def, rowActionItems, row)} t={t} locale={locale} onRun={runRowAction} />,
          },
        ]
      : []),
  ];

  const onTableChange: TableProps<ResourceRow>['onChange'] = (pagination, _filters, sorter) => {
    const single = Array.isArray(sorter) ? sorter[0] : sorter;
    setPaging({ pageIndex: pagination.current ?? 1, pageSize: pagination.pageSize ?? DEFAULT_PAGE_SIZE });
    setSort(single?.order ? { sortField: String(single.columnKey), sortOrder: single.order === 'ascend' ? 'asc' : 'desc' } : {});
  };

  const answer = search.data;

  // Counts stop at 10,000: beyond that the export may hold fewer rows than match, so say so first.
  const startExport = () => {
    const run = () => void exporter.run({ ...filters, ...fixedValues, ...sort });
    if (!answer?.totalIsCapped) return run();
    const format = (n: number) => n.toLocaleString(locale === 'en' ? 'en-US' : 'zh-CN');
    modal.confirm({
      title: t('resource.export'),
      content: t('resource.exportCapped', { shown: format(answer.total), count: format(MAX_EXPORT_COUNT) }),
      onOk: run,
    });
  };
  const hasSelection = selectedIds.length > 0;
  return (
    <div className="page-stack resource-page">
      <Card size="small" className="resource-filter-card">
        <FilterBar
          def={def}
          formName={`filter-${frame}-${def.name}`}
          hiddenFields={hiddenFields}
          fixedValues={fixedValues}
          initialValues={initialFilters}
          maxPerRow={isEmbedded ? 2 : 4}
          onSearch={(values) => {
            setFilters(buildFilterPayload(def, values));
            setPaging((current) => ({ ...current, pageIndex: 1 }));
            setSelectedIds([]);
          }}
        />
      </Card>
      <Card size="small">
        <div className="resource-toolbar">
          <Space wrap>
            {toolbar.add && (
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setDrawer({ mode: 'add' })}>
                {t('resource.add')}
              </Button>
            )}
            {toolbar.batchDelete && (
              <Button
                danger
                icon={<DeleteOutlined />}
                disabled={!hasSelection}
                onClick={() => confirmDelete(selectedIds, t('resource.deleteConfirm', { count: selectedIds.length, family: familyLabel }))}
              >
                {t('resource.batchDelete')}
              </Button>
            )}
            {toolbar.toggles.flatMap((toggleDef) => {
              const field = def.fields[toggleDef.field];
              if (!field) return [];
              const values = toggleValuesOf(field);
              return [
                { value: values.on, text: values.onText(locale) },
                { value: values.off, text: values.offText(locale) },
              ].map(({ value, text }) => (
                <SubmitButton key={`${toggleDef.field}:${String(value)}`} disabled={!hasSelection} onClick={() => toggle(selectedIds, toggleDef.field, value)}>
                  {t('resource.batchSet', { value: text })}
                </SubmitButton>
              ));
            })}
            {toolbar.export && (
              <Button icon={<ExportOutlined />} loading={exporter.isRunning} onClick={startExport}>
                {t('resource.export')}
              </Button>
            )}
            {hasSelection && (
              <Typography.Text type="secondary">
                {t('resource.selected', { count: selectedIds.length })}
                <Button type="link" size="small" onClick={() => setSelectedIds([])}>
                  {t('resource.clearSelection')}
                </Button>
              </Typography.Text>
            )}
          </Space>
          <TableSettings
            columns={dataColumns.map((column) => ({ key: column.key, title: String(column.title) }))}
            hiddenColumns={hiddenColumns}
            onHiddenColumnsChange={setHiddenColumns}
            density={density}
            onDensityChange={setDensity}
            onRefresh={() => void search.refetch()}
            isRefreshing={search.isFetching}
          />
        </div>
        <Table<ResourceRow>
          rowKey="id"
          size={density}
          columns={columns}
          dataSource={answer?.items ?? []}
          loading={search.isFetching}
          scroll={{ x: 'max-content' }}
          onChange={onTableChange}
          rowSelection={
            toolbar.batchDelete || toolbar.toggles.length > 0
              ? { selectedRowKeys: selectedIds, onChange: (keys) => setSelectedIds(keys.map(Number)), preserveSelectedRowKeys: true }
              : undefined
          }
          pagination={{
            current: paging.pageIndex,
            pageSize: paging.pageSize,
            total: answer?.total ?? 0,
            showSizeChanger: true,
            pageSizeOptions: PAGE_SIZE_OPTIONS,
            showTotal: (total) =>
              t(answer?.totalIsCapped ? 'resource.totalCapped' : 'resource.total', { total: total.toLocaleString(locale === 'en' ? 'en-US' : 'zh-CN') }),
          }}
        />
      </Card>
      {drawer && (
        <RecordDrawer
          key={drawer.mode === 'edit' ? `edit:${drawer.row.id}` : 'add'}
          def={def}
          api={api}
          target={drawer}
          hiddenFields={formHiddenFields}
          presetValues={fixedValues}
          extraTabs={drawer.mode === 'edit' ? childTabsOf(def, drawer.row, frame, locale) : undefined}
          onClose={() => setDrawer(null)}
          onSaved={() => {
            setDrawer(null);
            void refreshFamily();
          }}
        />
      )}
      {runningAction && (
        <ActionModal
          api={api}
          action={runningAction.action}
          row={runningAction.row}
          rowTitle={rowTitle(runningAction.row)}
          onClose={() => setRunningAction(null)}
          onDone={() => {
            setRunningAction(null);
            void refreshFamily();
          }}
        />
      )}
      {openPanel && <openPanel.extra.Panel row={openPanel.row} frame={frame} onClose={() => setOpenPanel(null)} />}
      {workflow.element}
      {exporter.progress}
    </div>
  );
}

/**
 * The child families of a row (`parent` in their declaration) as tabs of its drawer: each the generic
 * page fixed to that row, on the parent's page, so the parent page's buttons govern it.
 */
function childTabsOf(def: ResourceDef, row: ResourceRow, frame: string, locale: Locale): TabsProps['items'] {
  return childFamiliesOf(def).map((child) => ({
    key: child.name,
    label: labelText(child.label, locale),
    children: <ResourcePage def={child} frame={frame} fixedValues={{ [child.parent!.field]: row.id }} isEmbedded />,
  }));
}
