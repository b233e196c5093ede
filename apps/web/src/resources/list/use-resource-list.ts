/**
 * The list controller of a family's page (react-admin's `useListController`): its filters, paging,
 * sort and selection, the Search query, and the list-wide actions (refresh, toggle, delete, export).
 * The parts of a page (filters, toolbar, table) read and drive this one object. Its state lives in the
 * page; the tab keeps the page mounted, so it survives tab switches without any global store.
 */
import { MAX_EXPORT_COUNT, type ButtonValue, type ResourceDef } from '@campus/contract';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useCallback, useMemo, useState } from 'react';
import { useBackgroundPoll } from '../../hooks/use-background-poll';
import { usePermission } from '../../hooks/use-permission';
import { formatCount, useLocale, useT } from '../../lib/i18n';
import { showToast } from '../../lib/toast';
import { buildFilterPayload, initialFilterValues, type FilterPayload } from './filter-payload';
import { labelText, toggleValuesOf } from '../shared/labels';
import { effectivePageSize, filterFormValuesOf, type ListUrlState } from './list-url';
import { allowedToolbar } from '../shared/permissions';
import { resourceApi, type ResourceApi, type ResourceRow, type SortState } from '../shared/resource-api';
import { useExport } from './use-export';

export type FixedValues = Readonly<Record<string, string | number | boolean>>;

const NO_FIXED_VALUES: FixedValues = {};

export interface ResourceListOptions {
  def: ResourceDef;
  /** The page (view) the family is shown on: its frame's route name, sent as `?view=`. */
  frame: string;
  /** Values the surrounding page fixes (the school whose classes a drawer lists): sent with every search. */
  fixedValues?: FixedValues;
  /** The family's calls; the page's own by default (tests pass a stub). */
  api?: ResourceApi;
  /** Reads the page again this often while the browser tab is visible (live columns: a terminal's online state). */
  refreshSeconds?: number;
  /** Buttons taken from the caller although its grant holds them (a visibility probe forbids the calls). */
  withheldButtons?: readonly ButtonValue[];
  /** Filters, page and sort to start with (from the address bar); none = the family's search defaults. */
  initialState?: ListUrlState | null;
  /** The user's saved page size, used while the address bar names none. */
  savedPageSize?: number;
  /** The user changed the page size: save it. */
  onPageSizeChange?: (pageSize: number) => void;
  /** False while the saved page size is still being read: the first Search waits rather than run twice. */
  isReady?: boolean;
}

const NO_BUTTONS: readonly ButtonValue[] = [];

/**
 * @example
 * const list = useResourceList({ def: School, frame: 'schoolManage' });
 * list.applyFilters({ schoolName: 'Sun' }); // back to page 1, selection cleared
 * list.rows; list.total; list.changePage({ pageIndex: 2, pageSize: 20 }, {});
 */
export function useResourceList({
  def,
  frame,
  fixedValues = NO_FIXED_VALUES,
  api: givenApi,
  refreshSeconds,
  withheldButtons = NO_BUTTONS,
  initialState,
  savedPageSize,
  onPageSizeChange,
  isReady = true,
}: ResourceListOptions) {
  const t = useT();
  const locale = useLocale();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const permission = usePermission(frame);
  const can = useCallback((button: ButtonValue) => permission.can(button) && !withheldButtons.includes(button), [permission, withheldButtons]);
  const api = useMemo(() => givenApi ?? resourceApi(def.name, frame), [givenApi, def.name, frame]);
  const familyLabel = labelText(def.label, locale);
  const initialFilters = useMemo(() => initialFilterValues(def), [def]);
  const hasInitialFilters = initialState !== undefined && initialState !== null && Object.keys(initialState.filters).length > 0;

  const [filters, setFilters] = useState<FilterPayload>(() => (hasInitialFilters ? initialState.filters : buildFilterPayload(def, initialFilters)));
  // `pageSize` is set only when the address names one or the user picks one; else the saved one applies.
  const [paging, setPaging] = useState<{ pageIndex: number; pageSize?: number }>(() => ({ pageIndex: initialState?.pageIndex ?? 1, pageSize: initialState?.pageSize }));
  const [sort, setSort] = useState<SortState>(() => initialState?.sort ?? {});
  const [selectedIds, setSelectedIds] = useState<number[]>([]);
  const [togglingIds, setTogglingIds] = useState<ReadonlySet<number>>(() => new Set());
  // What the filter bar shows when the list sets its filters (address bar, a saved view); bumped to apply.
  const [filterForm, setFilterForm] = useState(() => ({
    values: hasInitialFilters ? filterFormValuesOf(def, initialState.filters, initialFilters) : initialFilters,
    revision: 0,
  }));

  const pageSize = effectivePageSize(paging.pageSize, savedPageSize);
  const searchRequest = { ...filters, ...fixedValues, pageIndex: paging.pageIndex, pageSize, ...sort };
  const searchKey = ['resource', def.name, frame, 'search', searchRequest];
  const search = useQuery({
    queryKey: searchKey,
    queryFn: () => api.search(searchRequest),
    enabled: isReady,
    // The old page stays on screen while the next one loads: no flash of an empty table.
    placeholderData: keepPreviousData,
  });
  // Live columns are read again as background calls, paused while the tab is hidden: they must not keep the session alive.
  useBackgroundPoll({
    queryKey: searchKey,
    poll: () => api.search(searchRequest, { background: true }),
    intervalMs: refreshSeconds && isReady ? refreshSeconds * 1000 : false,
  });
  const answer = search.data;
  /**
   * Every list of the family (also other pages and drawer tabs showing it) reads again, and the menu's
   * badge counts: a write (a reply to feedback) may have taken a pending item away.
   */
  const refresh = () => Promise.all([queryClient.invalidateQueries({ queryKey: ['resource', def.name] }), queryClient.invalidateQueries({ queryKey: ['badgeCounts'] })]);
  const exporter = useExport(api, familyLabel);

  /**
   * 查询: new filters start again at page 1 with nothing selected (the old page and selection may not
   * exist); the same filters on page 1 ask the server again rather than answer from the cache.
   */
  const applyFilters = (values: Record<string, unknown>) => {
    const next = buildFilterPayload(def, values);
    setSelectedIds([]);
    if (paging.pageIndex === 1 && JSON.stringify(next) === JSON.stringify(filters)) {
      void search.refetch();
      return;
    }
    setFilters(next);
    setPaging((current) => ({ ...current, pageIndex: 1 }));
  };

  const changePage = (next: { pageIndex: number; pageSize: number }, nextSort: SortState) => {
    // A page size the user picks is theirs from now on: saved with their table settings.
    if (next.pageSize !== pageSize) onPageSizeChange?.(next.pageSize);
    setPaging(next.pageSize !== pageSize ? next : (current) => ({ ...current, pageIndex: next.pageIndex }));
    setSort(nextSort);
  };

  /** Sets filters, page and sort the list did not choose itself (back button, a link, a saved view), and shows them in the filter bar. */
  const restore = (state: ListUrlState) => {
    const nextFilters = Object.keys(state.filters).length > 0 ? state.filters : buildFilterPayload(def, initialFilters);
    setSelectedIds([]);
    setFilters(nextFilters);
    setPaging({ pageIndex: state.pageIndex, pageSize: state.pageSize });
    setSort(state.sort);
    setFilterForm((current) => ({ values: filterFormValuesOf(def, nextFilters, initialFilters), revision: current.revision + 1 }));
  };

  const toggle = async (ids: number[], field: string, value: unknown) => {
    setTogglingIds((current) => new Set([...current, ...ids]));
    try {
      await api.toggle(field, ids, value);
      const declared = def.fields[field];
      const valueText = declared ? valueTextOf(toggleValuesOf(declared), value, locale) : String(value);
      showToast('success', ids.length > 1 ? t('resource.toggled', { count: ids.length }) : t('resource.toggleDone', { value: valueText }));
      await refresh();
    } catch {
      // The request client has shown the failure; the switch stays where the server left it.
    } finally {
      setTogglingIds((current) => new Set([...current].filter((id) => !ids.includes(id))));
    }
  };

  /**
   * A switch or batch button: switching off (disabling an account, a school, a device) asks first,
   * naming the row or the count; switching on runs at once. Either way a message says it was done.
   */
  const confirmToggle = (ids: number[], field: string, value: unknown, rowTitle?: string) => {
    const declared = def.fields[field];
    if (!declared) return void toggle(ids, field, value);
    const values = toggleValuesOf(declared);
    if (String(value) !== String(values.off)) return void toggle(ids, field, value);
    const valueText = values.offText(locale);
    modal.confirm({
      title: t('resource.toggleTitle', { value: valueText }),
      content:
        ids.length === 1 && rowTitle !== undefined
          ? t('resource.toggleConfirm', { family: familyLabel, title: rowTitle, value: valueText })
          : t('resource.toggleBatchConfirm', { count: ids.length, family: familyLabel, value: valueText }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: () => toggle(ids, field, value),
    });
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
        await refresh();
      },
    });

  // Counts stop at 10,000, and a large result may only be estimated: when the export may hold fewer
  // rows than match, say so first.
  const startExport = () => {
    const run = () => void exporter.run({ ...filters, ...fixedValues, ...sort });
    const estimatedPastExport = answer?.totalIsEstimate && answer.total > MAX_EXPORT_COUNT;
    if (!answer?.totalIsCapped && !estimatedPastExport) return run();
    modal.confirm({
      title: t('resource.export'),
      content: t(estimatedPastExport ? 'resource.exportEstimated' : 'resource.exportCapped', { shown: formatCount(answer.total, locale), count: formatCount(MAX_EXPORT_COUNT, locale) }),
      onOk: run,
    });
  };

  return {
    def,
    frame,
    api,
    can,
    /** The toolbar buttons the caller's permission values allow. */
    buttons: allowedToolbar(def, can),
    familyLabel,
    rowTitle: (row: ResourceRow) => String(row[def.titleField] ?? row.id),
    fixedValues,
    initialFilters,
    filters,
    applyFilters,
    /** The page shown and its size (the saved one unless the address or the user picked another). */
    paging: { pageIndex: paging.pageIndex, pageSize },
    sort,
    changePage,
    restore,
    /** What the address bar holds for this list. */
    addressState: { filters, pageIndex: paging.pageIndex, pageSize: paging.pageSize, sort } satisfies ListUrlState,
    filterForm,
    search,
    rows: answer?.items ?? [],
    total: answer?.total ?? 0,
    /** The total is a lower bound: more rows than it match ("N+"). */
    isTotalCapped: answer?.totalIsCapped ?? false,
    /** A next page exists (the server read one row past this page). */
    hasMore: answer?.hasMore ?? false,
    /** The total is the database's estimate of a large result (shown as "about N"), not a count. */
    isTotalEstimate: answer?.totalIsEstimate ?? false,
    refresh,
    selectedIds,
    setSelectedIds,
    toggle,
    confirmToggle,
    togglingIds,
    confirmDelete,
    startExport,
    exporter,
  };
}

export type ResourceList = ReturnType<typeof useResourceList>;

function valueTextOf(values: ReturnType<typeof toggleValuesOf>, value: unknown, locale: Parameters<ReturnType<typeof toggleValuesOf>['onText']>[0]): string {
  return String(value) === String(values.on) ? values.onText(locale) : values.offText(locale);
}
