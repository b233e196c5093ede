/** The ECharts option of a report's chart, from its declaration and the GetSummary groups. */
import type { ReportChartDef, ReportDef, ReportGrain, ReportRow } from '@campus/contract';
import type { Locale } from '../lib/i18n';
import { dimensionText, measureValue, periodsBetween } from './report-values';

export interface ChartInput {
  def: ReportDef;
  items: readonly ReportRow[];
  /** Measures the caller may see (money is absent where hideAmountColumns holds). */
  visibleMeasures: ReadonlySet<string>;
  locale: Locale;
  grain: ReportGrain;
  /** The period the answer covers, to draw periods without rows as 0. */
  range?: { from: string; to: string };
  none: string;
  /** The chart to draw, when the page switched it (`chartAs`); the declared one otherwise. */
  chart?: ReportChartDef;
  /** The name of the slice that gathers a pie's smallest values (given for pies by a dimension). */
  others?: string;
}

/** A pie shows its largest values one by one and the rest as one slice: forty schools read as nothing. */
export const PIE_SLICES = 10;

/** A minimal structural type of the option we build (ECharts' own types stay in the lazy chunk). */
export interface ReportChartOption {
  tooltip: Record<string, unknown>;
  legend: Record<string, unknown>;
  grid?: Record<string, unknown>;
  xAxis?: Record<string, unknown>;
  yAxis?: Record<string, unknown>;
  series: Record<string, unknown>[];
}

/**
 * Builds the option: one category per x value (every period of the range for a time axis), and one
 * series per listed measure (`series: 'measures'`) or per value of the series dimension.
 * @example chartOption({ def: WarehouseStatistics, items, visibleMeasures, locale: 'en', grain: 'month', none: 'None' })
 */
export function chartOption({ def, items, visibleMeasures, locale, grain, range, none, chart = def.chart, others }: ChartInput): ReportChartOption | null {
  const measures = chart.measures.filter((name) => visibleMeasures.has(name));
  if (chart.type === 'table' || measures.length === 0) return null;
  const xDimension = def.dimensions[chart.x]!;
  const label = (text: { zh: string; en: string }) => (locale === 'en' ? text.en : text.zh);
  const keyOf = (row: ReportRow) => String(row[chart.x] ?? '');

  const keys = xDimension.kind === 'period' && range ? periodsBetween(range.from, range.to, grain) : [...new Set(items.map(keyOf))];
  const names = new Map(items.map((row) => [keyOf(row), dimensionText(xDimension, chart.x, row, { locale, grain, none })]));
  const categories = keys.map((key) => names.get(key) ?? dimensionText(xDimension, chart.x, { [chart.x]: key }, { locale, grain, none }));
  const sumBy = (rows: readonly ReportRow[], measure: string) => {
    const sums = new Map<string, number>();
    for (const row of rows) sums.set(keyOf(row), (sums.get(keyOf(row)) ?? 0) + measureValue(def.measures[measure]!, row[measure]));
    return keys.map((key) => sums.get(key) ?? 0);
  };

  const seriesList: { name: string; data: number[]; color?: string }[] =
    chart.series === 'measures'
      ? measures.map((measure) => ({ name: label(def.measures[measure]!.label), data: sumBy(items, measure), color: def.measures[measure]!.color }))
      : [...new Set(items.map((row) => String(row[chart.series] ?? '')))].map((value) => {
          const rows = items.filter((row) => String(row[chart.series] ?? '') === value);
          return { name: dimensionText(def.dimensions[chart.series]!, chart.series, rows[0]!, { locale, grain, none }), data: sumBy(rows, measures[0]!) };
        });

  if (chart.type === 'pie') {
    // Between measures (new and returning parents): one slice per measure, summed over the range.
    const slicesOfMeasures = chart.pie?.by === 'measures' && chart.series === 'measures';
    const [first] = seriesList;
    const slices = slicesOfMeasures
      ? seriesList.map(({ name, data, color }) => ({ name, value: data.reduce((sum, value) => sum + value, 0), ...(color ? { itemStyle: { color } } : {}) }))
      : categories.map((name, i) => ({ name, value: first?.data[i] ?? 0 }));
    return {
      tooltip: { trigger: 'item' },
      legend: { type: 'scroll', bottom: 0 },
      series: [{ type: 'pie', name: slicesOfMeasures ? label(def.label) : first?.name, radius: ['35%', '65%'], data: withOthers(slices.filter((slice) => slice.value !== 0), others) }],
    };
  }
  return {
    tooltip: { trigger: 'axis' },
    legend: { type: 'scroll', top: 0 },
    grid: { left: 48, right: 24, top: 40, bottom: 32, containLabel: true },
    xAxis: { type: 'category', data: categories, axisLabel: { hideOverlap: true } },
    yAxis: { type: 'value', minInterval: def.measures[measures[0]!]!.kind === 'money' ? undefined : 1 },
    series: seriesList.map(({ name, data, color }) => ({
      type: chart.type,
      name,
      data,
      ...(color ? { itemStyle: { color }, lineStyle: { color } } : {}),
      ...(chart.stacked ? { stack: 'total' } : {}),
      // Straight segments: a smoothed curve over sparse daily counts rises before the day that holds the count.
      ...(chart.type === 'line' ? { smooth: false, showSymbol: keys.length <= 62 } : { barMaxWidth: 48 }),
    })),
  };
}

/** The largest PIE_SLICES − 1 slices and, when more remain, one slice of their sum named `others`. */
function withOthers<S extends { name: string; value: number }>(slices: S[], others: string | undefined): (S | { name: string; value: number })[] {
  if (others === undefined || slices.length <= PIE_SLICES) return slices;
  const sorted = [...slices].sort((a, b) => b.value - a.value);
  const rest = sorted.slice(PIE_SLICES - 1).reduce((sum, slice) => sum + slice.value, 0);
  return [...sorted.slice(0, PIE_SLICES - 1), { name: others, value: rest }];
}
