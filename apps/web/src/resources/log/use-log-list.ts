/** The rows of a log list: the filters, the time range and key paging, read with TanStack Query. */
import { DEFAULT_PAGE_SIZE, resourcePath, type LogSearchAnswer, type ResourceDef } from '@campus/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useReducer, useState } from 'react';
import { http } from '../../lib/request';
import type { FilterPayload } from '../list/filter-payload';
import { filterFormValuesOf, type ListUrlState } from '../list/list-url';
import { defaultLogRange, rangeFilters, type LogRange } from './log-range';
import { firstLogPage, logPagingReducer } from './log-paging';
import type { ResourceRow } from '../shared/resource-api';

/** POST /api/{LogFamily}/Search through one page (view). */
export function searchLog(family: string, view: string, body: FilterPayload & { pageSize: number; cursor?: string }) {
  return http.post<LogSearchAnswer<ResourceRow>>(resourcePath(family, 'Search'), body, { query: { view }, idempotent: true });
}

/**
 * @example const list = useLogList(LoginLog, 'jurisdictionManage'); list.next(); list.setRange(null)
 */
export function useLogList(def: ResourceDef, frame: string, fixedValues: FilterPayload = {}, initialState: ListUrlState | null = null) {
  const timeField = def.log?.timeField ?? 'createdAt';
  const [filters, setFiltersState] = useState<FilterPayload>(() => initialState?.filters ?? {});
  // What the filter bar shows when the address sets the filters (back button, a pending link); bumped to apply.
  const [filterForm, setFilterForm] = useState(() => ({ values: filterFormValuesOf(def, initialState?.filters ?? {}), revision: 0 }));
  const [range, setRangeState] = useState<LogRange | null>(() => defaultLogRange(def));
  const [paging, dispatch] = useReducer(logPagingReducer, initialState?.pageSize ?? DEFAULT_PAGE_SIZE, firstLogPage);
  // What Search and Export both send: the filters within the range (none: the server's default range).
  const searchFilters: FilterPayload = { ...filters, ...fixedValues, ...rangeFilters(timeField, range) };
  const body = { ...searchFilters, pageSize: paging.pageSize, ...(paging.cursor ? { cursor: paging.cursor } : {}) };
  const query = useQuery({
    queryKey: ['log', def.name, frame, body],
    queryFn: () => searchLog(def.name, frame, body),
    placeholderData: keepPreviousData,
  });
  const answer = query.data;
  return {
    query,
    rows: answer?.items ?? [],
    /** The range the server applied (its default when the range was cleared). */
    appliedRange: answer?.range,
    searchFilters,
    range,
    pageNumber: paging.pageNumber,
    pageSize: paging.pageSize,
    hasPrevious: paging.pageNumber > 1,
    hasNext: Boolean(answer?.nextCursor),
    next: () => answer?.nextCursor && dispatch({ type: 'next', cursor: answer.nextCursor }),
    previous: () => dispatch({ type: 'previous', cursor: answer?.prevCursor ?? null }),
    /** 查询: new filters start again at the newest page; the same ones there ask the server again (new rows). */
    setFilters: (next: FilterPayload) => {
      if (paging.pageNumber === 1 && JSON.stringify(next) === JSON.stringify(filters)) {
        void query.refetch();
        return;
      }
      setFiltersState(next);
      dispatch({ type: 'restart' });
    },
    setRange: (next: LogRange | null) => {
      setRangeState(next);
      dispatch({ type: 'restart' });
    },
    setPageSize: (pageSize: number) => dispatch({ type: 'restart', pageSize }),
    /** The address bar's part of the list: its filters and page size (a log pages by key, so no page number). */
    addressState: { filters, pageIndex: 1, pageSize: paging.pageSize === DEFAULT_PAGE_SIZE ? undefined : paging.pageSize, sort: {} } satisfies ListUrlState,
    /** Filters the address asks for, shown in the filter bar too; the list starts again at the newest page. */
    restore: (state: ListUrlState) => {
      setFiltersState(state.filters);
      dispatch({ type: 'restart', pageSize: state.pageSize ?? DEFAULT_PAGE_SIZE });
      setFilterForm((current) => ({ values: filterFormValuesOf(def, state.filters), revision: current.revision + 1 }));
    },
    filterForm,
  };
}

export type LogList = ReturnType<typeof useLogList>;
