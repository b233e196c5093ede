/** The calls of one report through one page, with the paths of apps/server/src/reports/routes.ts. */
import { resourcePath, type ReportSearchAnswer, type ReportSummaryAnswer, type ReportGrain } from '@campus/contract';
import { downloadFile, http, type DownloadedFile } from '../lib/request';
import type { FilterPayload } from '../resources/list/filter-payload';
import type { SortState } from '../resources/shared/resource-api';

/** What a report call sends besides paging: the filter bar's filters, the grain and the sort. */
export type ReportFilters = FilterPayload & SortState & { grain?: ReportGrain };

/**
 * @example const api = reportApi('WarehouseStatistics', 'warehousingStatistics'); await api.search({ pageIndex: 1, pageSize: 20, grain: 'month' })
 */
export function reportApi(report: string, view: string) {
  const path = (verb: string) => resourcePath(report, verb);
  return {
    search: (body: ReportFilters & { pageIndex: number; pageSize: number }) => http.post<ReportSearchAnswer>(path('Search'), body, { query: { view }, idempotent: true }),
    /** Every group of the given dimensions (the chart's), no paging. */
    summary: (filters: ReportFilters, groupBy: readonly string[]) => http.get<ReportSummaryAnswer>(path('GetSummary'), { ...filters, view, groupBy: groupBy.join(',') }),
    exportFile: (filters: ReportFilters, lang: 'zh' | 'en', signal?: AbortSignal): Promise<DownloadedFile> =>
      downloadFile(path('Export'), { ...filters, view, lang }, { signal, fallbackName: `${report}.xlsx` }),
  };
}

export type ReportApi = ReturnType<typeof reportApi>;
