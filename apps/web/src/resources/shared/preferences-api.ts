/** The caller's preferences of a list page on the server (`/api/Preference/*`), read once per page and kept in the query cache. */
import { PREFERENCE_PATHS, type FilterView, type PagePreferences, type TableSettings } from '@campus/contract';
import { useQuery } from '@tanstack/react-query';
import { http } from '../../lib/request';

export const preferencesApi = {
  // Silent: without its preferences a list still works with the declaration's layout.
  get: (page: string) => http.get<PagePreferences>(PREFERENCE_PATHS.get, { page }, { silent: true }),
  saveTable: (page: string, table: TableSettings) => http.post<PagePreferences>(PREFERENCE_PATHS.saveTable, { page, table }),
  resetTable: (page: string) => http.post<PagePreferences>(PREFERENCE_PATHS.resetTable, { page }),
  saveView: (page: string, view: FilterView) => http.post<PagePreferences>(PREFERENCE_PATHS.saveView, { page, view }),
  deleteView: (page: string, name: string) => http.post<PagePreferences>(PREFERENCE_PATHS.deleteView, { page, name }),
};

export const preferencesKey = (page: string) => ['preferences', page] as const;

/**
 * One page's preferences; null page = a list that keeps none (a drawer's child list).
 * @example const { data } = usePagePreferences('schoolManage.School'); data?.views
 */
export function usePagePreferences(page: string | null) {
  return useQuery({
    queryKey: preferencesKey(page ?? ''),
    queryFn: () => preferencesApi.get(page!),
    enabled: page !== null,
    // Changed only through this browser's own calls, which put their answer in the cache.
    staleTime: Infinity,
    retry: false,
  });
}
