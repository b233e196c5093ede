/**
 * The list controller of a family's page (react-admin's `useListController`): its filters, paging,
 * sort and selection, the Search query, and the list-wide actions (refresh, toggle, delete, export).
 * The parts of a page (filters, toolbar, table) read and drive this one object. Its state lives in the
 * page; the tab keeps the page mounted, so it survives tab switches without any global store.
 */
import { DEFAULT_PAGE_SIZE, MAX_EXPORT_COUNT, type ButtonValue, type ResourceDef } from '@campus/contract';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useCallback, useMemo, useState } from 'react';
import { usePermission } from '../hooks/use-permission';
import { useLocale, useT } from '../lib/i18n';
import { showToast } from '../lib/toast';
import { buildFilterPayload, initialFilterValues, type FilterPayload } from './filter-payload';
import { labelText } from './labels';
import { allowedToolbar } from './permissions';
import { resourceApi, type ResourceApi, type ResourceRow, type SortState } from './resource-api';
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
}

const NO_BUTTONS: readonly ButtonValue[] = [];

/**
 * @example
 * const list = useResourceList({ def: School, frame: 'schoolManage' });
 * list.applyFilters({ schoolName: 'Sun' }); // back to page 1, selection cleared
 * list.rows; list.total; list.changePage({ pageIndex: 2, pageSize: 20 }, {});
 */
export function useResourceList({ def, frame, fixedValues = NO_FIXED_VALUES, api: givenApi, refreshSeconds, withheldButtons = NO_BUTTONS }: ResourceListOptions) {
  const t = useT();
  const locale = useLocale();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const permission = usePermission(frame);
  const can = useCallback((button: ButtonValue) => permission.can(button) && !withheldButtons.includes(button), [permission, withheldButtons]);
  const api = useMemo(() => givenApi ?? resourceApi(def.name, frame), [givenApi, def.name, frame]);
  const familyLabel = labelText(def.label, locale);
  const initialFilters = useMemo(() => initialFilterValues(def), [def]);

  const [filters, setFilters] = useState<FilterPayload>(() => buildFilterPayload(def, initialFilters));
  const [paging, setPaging] = useState({ pageIndex: 1, pageSize: DEFAULT_PAGE_SIZE });
  const [sort, setSort] = useState<SortState>({});
  const [selectedIds, setSelectedIds] = useState<number[]>([]);
  const [togglingIds, setTogglingIds] = useState<ReadonlySet<number>>(() => new Set());

  const searchRequest = { ...filters, ...fixedValues, ...paging, ...sort };
  const search = useQuery({
    queryKey: ['resource', def.name, frame, 'search', searchRequest],
    queryFn: () => api.search(searchRequest),
    // The old page stays on screen while the next one loads: no flash of an empty table.
    placeholderData: keepPreviousData,
    // TanStack Query pauses the interval while the tab is hidden (refetchIntervalInBackground is off).
    refetchInterval: refreshSeconds ? refreshSeconds * 1000 : false,
  });
  const answer = search.data;
  /** Every list of the family (also other pages and drawer tabs showing it) reads again. */
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['resource', def.name] });
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
    setPaging(next);
    setSort(nextSort);
  };

  const toggle = async (ids: number[], field: string, value: unknown) => {
    setTogglingIds((current) => new Set([...current, ...ids]));
    try {
      await api.toggle(field, ids, value);
      if (ids.length > 1) showToast('success', t('resource.toggled', { count: ids.length }));
      await refresh();
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
        await refresh();
      },
    });

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
    paging,
    sort,
    changePage,
    search,
    rows: answer?.items ?? [],
    total: answer?.total ?? 0,
    isTotalCapped: answer?.totalIsCapped ?? false,
    refresh,
    selectedIds,
    setSelectedIds,
    toggle,
    togglingIds,
    confirmDelete,
    startExport,
    exporter,
  };
}

export type ResourceList = ReturnType<typeof useResourceList>;
