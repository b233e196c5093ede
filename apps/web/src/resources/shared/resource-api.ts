/** The calls of one family through one page (view), with the paths of routes.ts on the server. */
import { MAX_EXPORT_COUNT, resourcePath, toggleVerb, type ReferenceOption, type SearchAnswer, type StateHistoryEntry, type TreeMoveRequest } from '@campus/contract';
import { downloadFile, http, type DownloadedFile } from '../../lib/request';
import type { FilterPayload } from '../list/filter-payload';
import type { WireBody } from '../form/form-values';

/** A row as Search and Get answer it: field values, `${reference}Label`s, id, version, timestamps. */
export type ResourceRow = Record<string, unknown> & { id: number; version: number };

/** A node of a tree family's Tree answer: the row and its children in sibling order. */
export type TreeRow = ResourceRow & { children?: TreeRow[] };

export interface SearchRequest extends FilterPayload {
  pageIndex: number;
  pageSize: number;
}

export interface SortState {
  sortField?: string;
  sortOrder?: 'asc' | 'desc';
}

/** Exports of large scopes take seconds; the default 30 s request timeout would cut them off. */
const EXPORT_TIMEOUT_MS = 10 * 60_000;

/**
 * The API of one family as seen from one page; `view` (the page's route) goes on every call so the
 * server applies that page's fixed filters and buttons (docs/decisions.md).
 * @example const api = resourceApi('License', 'codeManageA'); await api.search({ pageIndex: 1, pageSize: 20 })
 */
export function resourceApi(family: string, view: string) {
  const path = (verb: string) => resourcePath(family, verb);
  const viewQuery = { view };
  return {
    /** `background`: an automatic refresh, not the user's (see RequestOptions.background). */
    search: (body: SearchRequest & SortState, { background = false }: { background?: boolean } = {}) =>
      http.post<SearchAnswer<ResourceRow>>(path('Search'), body, { query: viewQuery, idempotent: true, background }),
    get: (id: number) => http.get<ResourceRow>(path('Get'), { id, view }),
    add: (body: WireBody) => http.post<{ id: number }>(path('Add'), body, { query: viewQuery }),
    update: (body: WireBody & { id: number; version: number }) => http.post<{ id: number; version: number }>(path('Update'), body, { query: viewQuery }),
    batchDelete: (ids: readonly number[]) => http.post<{ deleted: number }>(path('BatchDelete'), ids, { query: viewQuery }),
    /** A log family's declared hide flag (`log.hideField`): the only change its rows see. */
    hide: (ids: readonly number[]) => http.post<{ hidden: number }>(path('Hide'), { ids }, { query: viewQuery }),
    toggle: (field: string, ids: readonly number[], value: unknown) => http.post<unknown>(path(toggleVerb(field)), { ids, value }, { query: viewQuery }),
    /** Tree families: the whole tree, nested. */
    tree: () => http.get<TreeRow[]>(path('Tree'), { view }),
    /** Tree families: a node under another (null = root) at a position among its siblings. */
    move: (body: TreeMoveRequest) => http.post<{ id: number; version: number }>(path('Move'), body, { query: viewQuery }),
    runAction: (verb: string, body: WireBody & { id: number }) => http.post<unknown>(path(verb), body, { query: viewQuery }),
    batchTransition: (verb: string, ids: readonly number[]) => http.post<{ items: unknown[] }>(path(verb), { ids }, { query: viewQuery }),
    /** A workflow row's state changes, oldest first. */
    history: (id: number) => http.get<StateHistoryEntry[]>(path('History'), { id, view }),
    exportFile: (filters: FilterPayload & SortState, lang: 'zh' | 'en', signal?: AbortSignal): Promise<DownloadedFile> =>
      downloadFile(path('Export'), { ...filters, view, lang, maxCount: MAX_EXPORT_COUNT }, { signal, timeoutMs: EXPORT_TIMEOUT_MS, fallbackName: `${family}.xlsx` }),
  };
}

export type ResourceApi = ReturnType<typeof resourceApi>;

export interface OptionsQuery {
  /** Filters of the target family narrowing the options (a reference's `optionsFilter`). */
  [filter: string]: string | number | boolean | undefined;
  keyword?: string;
  schoolId?: number;
  /** Answer this unique field instead of the id (a reference by key, e.g. a device class code). */
  valueField?: string;
  limit?: number;
}

/** Id (or key) and display name of rows in the caller's scope, for reference pickers. */
export function fetchOptions(family: string, query: OptionsQuery): Promise<ReferenceOption[]> {
  return http.get<ReferenceOption[]>(resourcePath(family, 'Options'), { ...query });
}
