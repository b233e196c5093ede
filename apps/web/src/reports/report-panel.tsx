/**
 * One report of a page that shows several (DataCenter): its chart with a line / bar / pie switch, the
 * table of exactly the groups the chart draws with their totals, and the export of that table.
 */
import { ExportOutlined } from '@ant-design/icons';
import { SWITCHABLE_CHART_TYPES, chartAs, chartDimensionsOf, type ReportDef, type ReportGrain, type ReportRow, type SwitchableChartType } from '@campus/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Card, Segmented, Space, Table, type TableProps } from 'antd';
import { useMemo, useState } from 'react';
import { usePermission } from '../hooks/use-permission';
import { useVisibilityProbes } from '../hooks/use-visibility-probes';
import { useLocale, useT } from '../lib/i18n';
import type { FilterPayload } from '../resources/list/filter-payload';
import { useExport } from '../resources/list/use-export';
import { labelText } from '../resources/shared/labels';
import { chartOption } from './chart-option';
import { reportApi } from './report-api';
import { ReportChart } from './report-chart';
import { ReportTotalsRow } from './report-totals';
import { dimensionText, measureText, measureValue, shownMeasures } from './report-values';

const CHART_TYPE_KEYS = { line: 'report.chartLine', bar: 'report.chartBar', pie: 'report.chartPie' } as const;
const TABLE_PAGE_SIZE = 10;

export interface ReportPanelProps {
  def: ReportDef;
  frame: string;
  /** The page's filter bar, shared by every panel. */
  filters: FilterPayload;
  grain: ReportGrain;
  range?: { from: string; to: string };
}

export function ReportPanel({ def, frame, filters, grain, range }: ReportPanelProps) {
  const t = useT();
  const locale = useLocale();
  const { can } = usePermission(frame);
  const probes = useVisibilityProbes();
  const api = useMemo(() => reportApi(def.name, frame), [def.name, frame]);
  const title = labelText(def.label, locale);
  const exporter = useExport(api, title);
  const declared = def.chart.type;
  const [type, setType] = useState<SwitchableChartType>(declared === 'line' || declared === 'bar' || declared === 'pie' ? declared : 'line');
  const chart = useMemo(() => chartAs(def.chart, type), [def.chart, type]);
  const groupBy = useMemo(() => chartDimensionsOf({ ...def, chart }), [def, chart]);
  const none = t('report.none');

  const query = { ...filters, grain };
  const summary = useQuery({
    queryKey: ['reportSummary', def.name, frame, query, groupBy],
    queryFn: () => api.summary(query, groupBy),
    // The previous answer stays while the filters change, not when the groups do: rows of days under a school column read as nonsense.
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[4] === groupBy ? keepPreviousData(previous) : undefined),
  });

  const measures = useMemo(() => shownMeasures(def, probes), [def, probes]);
  const visibleMeasures = useMemo(() => new Set(measures.map(([name]) => name)), [measures]);
  const option = useMemo(
    () => (summary.data ? chartOption({ def, chart, items: summary.data.items, visibleMeasures, locale, grain, range, none, others: t('report.others') }) : null),
    // range is rebuilt each render from the filters; its parts are the dependency.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [summary.data, def, chart, visibleMeasures, locale, grain, range?.from, range?.to, none, t],
  );

  const columns: TableProps<ReportRow>['columns'] = [
    ...groupBy.map((name) => {
      const dimension = def.dimensions[name]!;
      const text = (row: ReportRow) => dimensionText(dimension, name, row, { locale, grain, none });
      return { key: name, dataIndex: name, title: labelText(dimension.label, locale), sorter: (a: ReportRow, b: ReportRow) => text(a).localeCompare(text(b)), render: (_: unknown, row: ReportRow) => text(row) };
    }),
    ...measures.map(([name, measure]) => ({
      key: name,
      dataIndex: name,
      title: labelText(measure.label, locale),
      align: 'right' as const,
      sorter: (a: ReportRow, b: ReportRow) => measureValue(measure, a[name]) - measureValue(measure, b[name]),
      render: (value: unknown) => measureText(measure, value, locale),
    })),
  ];
  const totals = summary.data?.totals;

  return (
    <Card
      size="small"
      className="report-panel"
      title={title}
      data-report={def.name}
      extra={
        <Space wrap>
          {def.chart.pie && (
            <Segmented<SwitchableChartType>
              aria-label={t('report.chartType')}
              size="small"
              value={type}
              options={SWITCHABLE_CHART_TYPES.map((value) => ({ value, label: t(CHART_TYPE_KEYS[value]) }))}
              onChange={setType}
            />
          )}
          {can('export') && (
            <Button size="small" icon={<ExportOutlined />} loading={exporter.isRunning} onClick={() => void exporter.run({ ...query, groupBy: groupBy.join(',') })}>
              {t('resource.export')}
            </Button>
          )}
        </Space>
      }
    >
      {option && <ReportChart option={option} height={300} />}
      <Table<ReportRow>
        rowKey={(row) => Object.keys(def.dimensions).map((name) => String(row[name] ?? '')).join('|')}
        size="small"
        columns={columns}
        dataSource={summary.data?.items ?? []}
        loading={summary.isFetching}
        scroll={{ x: 'max-content' }}
        pagination={{ defaultPageSize: TABLE_PAGE_SIZE, showSizeChanger: false, hideOnSinglePage: true, size: 'small' }}
        summary={() => totals && <ReportTotalsRow labelSpan={groupBy.length} measures={measures} totals={totals} />}
      />
      {exporter.progress}
    </Card>
  );
}
