/**
 * The generic report page: the filter bar (the resource one, over the report's filters), a grain
 * switch, the chart (ECharts, loaded on first use), the table of groups with a totals row, and export.
 */
import { ExportOutlined } from '@ant-design/icons';
import { DEFAULT_PAGE_SIZE, chartDimensionsOf, type ReportDef, type ReportGrain, type ReportRow, type ReportSearchAnswer } from '@campus/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Card, Image, Segmented, Space, Table, type TableProps } from 'antd';
import { useMemo, useState } from 'react';
import { usePermission } from '../hooks/use-permission';
import { useVisibilityProbes } from '../hooks/use-visibility-probes';
import { formatCount, useLocale, useT } from '../lib/i18n';
import { FilterBar } from '../resources/list/filter-bar';
import { pagerTotal } from '../resources/list/resource-table';
import { buildFilterPayload, type FilterPayload } from '../resources/list/filter-payload';
import { formatDateTime } from '../resources/shared/field-values';
import { labelText } from '../resources/shared/labels';
import type { SortState } from '../resources/shared/resource-api';
import { useExport } from '../resources/list/use-export';
import { chartOption } from './chart-option';
import { reportApi, type ReportFilters } from './report-api';
import { ReportChart } from './report-chart';
import { ReportTotalsRow } from './report-totals';
import { GRAIN_KEYS, dimensionText, initialValuesOf, measureText, periodRangeOf, shownMeasures } from './report-values';
import './report-page.css';

/** How the number of groups reads: a count, a count past the cap ("10,000+"), or the database's estimate ("about 38,000"). */
function groupsKey(answer: Pick<ReportSearchAnswer, 'totalIsCapped' | 'totalIsEstimate'> | undefined) {
  if (answer?.totalIsEstimate) return 'report.groupsEstimate';
  return answer?.totalIsCapped ? 'report.groupsCapped' : 'report.groups';
}
const PAGE_SIZE_OPTIONS = [10, 20, 50, 100, 200];

export interface ReportPageProps {
  def: ReportDef;
  /** The page (frame) the report is shown on, sent as `?view=`. */
  frame: string;
}

export function ReportPage({ def, frame }: ReportPageProps) {
  const t = useT();
  const locale = useLocale();
  const { can } = usePermission(frame);
  const probes = useVisibilityProbes();
  const api = useMemo(() => reportApi(def.name, frame), [def.name, frame]);
  const filterDef = useMemo(() => ({ fields: def.filters }), [def.filters]);
  const initialValues = useMemo(() => initialValuesOf(def), [def]);
  const [filters, setFilters] = useState<FilterPayload>(() => buildFilterPayload(filterDef, initialValues));
  const [grain, setGrain] = useState<ReportGrain | undefined>(def.period?.defaultGrain);
  const [paging, setPaging] = useState({ pageIndex: 1, pageSize: DEFAULT_PAGE_SIZE });
  const [sort, setSort] = useState<SortState>({});
  const exporter = useExport(api, labelText(def.label, locale));
  const none = t('report.none');

  const query: ReportFilters = { ...filters, ...sort, ...(grain ? { grain } : {}) };
  const search = useQuery({
    queryKey: ['report', def.name, frame, query, paging],
    queryFn: () => api.search({ ...query, ...paging }),
    placeholderData: keepPreviousData,
  });
  const chartDimensions = chartDimensionsOf(def);
  const summaryFilters: ReportFilters = { ...filters, ...(grain ? { grain } : {}) };
  const summary = useQuery({
    queryKey: ['reportSummary', def.name, frame, summaryFilters],
    queryFn: () => api.summary(summaryFilters, chartDimensions),
    enabled: def.chart.type !== 'table',
    placeholderData: keepPreviousData,
  });

  const measures = shownMeasures(def, probes);
  const visibleMeasures = useMemo(() => new Set(measures.map(([name]) => name)), [measures]);
  const effectiveGrain = grain ?? 'month';
  const range = periodRangeOf(def, filters);
  const option = useMemo(
    () => (summary.data ? chartOption({ def, items: summary.data.items, visibleMeasures, locale, grain: effectiveGrain, range, none }) : null),
    // range is rebuilt each render from filters; its parts are the dependency.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [summary.data, def, visibleMeasures, locale, effectiveGrain, range?.from, range?.to, none],
  );

  const sortOrderOf = (key: string): 'ascend' | 'descend' | null => (sort.sortField === key ? (sort.sortOrder === 'asc' ? 'ascend' : 'descend') : null);
  const columns: TableProps<ReportRow>['columns'] = [
    ...Object.entries(def.dimensions).map(([name, dimension]) => ({
      key: name,
      dataIndex: name,
      title: labelText(dimension.label, locale),
      sorter: true,
      sortOrder: sortOrderOf(name),
      render: (_: unknown, row: ReportRow) => dimensionText(dimension, name, row, { locale, grain: effectiveGrain, none }),
    })),
    ...measures.map(([name, measure]) => ({
      key: name,
      dataIndex: name,
      title: labelText(measure.label, locale),
      align: 'right' as const,
      sorter: true,
      sortOrder: sortOrderOf(name),
      render: (value: unknown) => measureText(measure, value, locale),
    })),
    // Per-group values beside the measures (the last time, the last snapshot): not sortable, no total.
    ...Object.entries(def.attributes ?? {}).map(([name, attribute]) => ({
      key: name,
      dataIndex: name,
      title: labelText(attribute.label, locale),
      render: (value: unknown) =>
        typeof value !== 'string' || value === '' ? none : attribute.kind === 'image' ? <Image src={value} alt={labelText(attribute.label, locale)} width={48} height={48} style={{ objectFit: 'cover' }} /> : formatDateTime(value),
    })),
  ];
  const dimensionCount = Object.keys(def.dimensions).length;
  const totals = search.data?.totals;

  return (
    <div className="report-page">
      <Card size="small" className="report-filters">
        <FilterBar
          def={filterDef}
          formName={`report-${frame}`}
          hiddenFields={new Set()}
          fixedValues={{}}
          initialValues={initialValues}
          onSearch={(values) => {
            setFilters(buildFilterPayload(filterDef, values));
            setPaging((current) => ({ ...current, pageIndex: 1 }));
          }}
        />
      </Card>
      <Card
        size="small"
        title={labelText(def.label, locale)}
        extra={
          <Space>
            {def.period && (
              <Segmented<ReportGrain>
                aria-label={t('report.grain')}
                value={effectiveGrain}
                options={def.period.grains.map((value) => ({ value, label: t(GRAIN_KEYS[value]) }))}
                onChange={(value) => {
                  setGrain(value);
                  setPaging((current) => ({ ...current, pageIndex: 1 }));
                }}
              />
            )}
            {can('export') && (
              <Button icon={<ExportOutlined />} loading={exporter.isRunning} onClick={() => void exporter.run(query)}>
                {t('resource.export')}
              </Button>
            )}
          </Space>
        }
      >
        {option && <ReportChart option={option} />}
        <Table<ReportRow>
          rowKey={(row) => Object.keys(def.dimensions).map((name) => String(row[name] ?? '')).join('|')}
          size="middle"
          columns={columns}
          dataSource={search.data?.items ?? []}
          loading={search.isFetching}
          scroll={{ x: 'max-content' }}
          pagination={{
            current: paging.pageIndex,
            pageSize: paging.pageSize,
            // "200+" groups must still let the reader page on while more follow.
            total: search.data ? pagerTotal({ total: search.data.total, isTotalCapped: search.data.totalIsCapped, hasMore: search.data.hasMore, paging }) : 0,
            showSizeChanger: true,
            pageSizeOptions: PAGE_SIZE_OPTIONS,
            showTotal: () => t(groupsKey(search.data), { total: formatCount(search.data?.total ?? 0, locale) }),
          }}
          onChange={(pagination, _filters, sorter) => {
            const single = Array.isArray(sorter) ? sorter[0] : sorter;
            const field = single?.order ? String(single.columnKey) : undefined;
            setSort(field ? { sortField: field, sortOrder: single!.order === 'ascend' ? 'asc' : 'desc' } : {});
            setPaging({ pageIndex: pagination.current ?? 1, pageSize: pagination.pageSize ?? DEFAULT_PAGE_SIZE });
          }}
          summary={() => totals && <ReportTotalsRow labelSpan={dimensionCount} measures={measures} totals={totals} />}
        />
      </Card>
      {exporter.progress}
    </div>
  );
}
