/**
 * The report declaration (PRODUCT "REPORT" pages): filters, dimensions, measures and the chart. The
 * server answers `POST /api/{name}/Search`, `GET /api/{name}/Export` and `GET /api/{name}/GetSummary`
 * from it and a source written next to it; the web draws the filter bar, chart and table from it.
 */
import type { EnumOption, FieldDef, Label, ScopeDef, ViewDef } from '../resources/define.js';

/** The width of one period of a time dimension; weeks start on Monday (PRODUCT section 3). */
export const REPORT_GRAINS = ['day', 'week', 'month'] as const;
export type ReportGrain = (typeof REPORT_GRAINS)[number];

/** A grain as messages name it. */
export const REPORT_GRAIN_LABELS: Readonly<Record<ReportGrain, { zh: string; en: string }>> = {
  day: { zh: '日', en: 'day' },
  week: { zh: '周', en: 'week' },
  month: { zh: '月', en: 'month' },
};

/** The longest date range each grain may cover: more periods than a chart or a page can show. */
export const MAX_RANGE_DAYS: Readonly<Record<ReportGrain, number>> = { day: 366, week: 3 * 366, month: 10 * 366 };

/** The date range filter of a report and the grains it may be grouped by. */
export interface ReportPeriodDef {
  /** A `date` filter field with `filter: 'range'` (sent as `${field}From` / `${field}To`, YYYY-MM-DD). */
  field: string;
  grains: readonly ReportGrain[];
  defaultGrain: ReportGrain;
  /** Months the range covers when the caller gives no start (the current month included). */
  defaultMonths: number;
  /**
   * Days the range covers when the caller gives no start, ending on its last day (a trend's "last 30
   * days"); wins over `defaultMonths` when given.
   */
  defaultDays?: number;
}

/** A value rows are grouped by. `period`: the start date (YYYY-MM-DD) of the row's day, week or month. */
export type ReportDimensionDef =
  | { kind: 'period'; label: Label }
  | { kind: 'enum'; label: Label; options: readonly EnumOption[] }
  /** A row of another family; the answer carries its display value as `${dimension}Label`. */
  | { kind: 'reference'; label: Label; family: string }
  | { kind: 'text'; label: Label };

/** An additive figure of a group: its totals row is the sum over all matching rows. */
export interface ReportMeasureDef {
  /** `count` of rows, a `number` summed, or `money` in cents (removed where hideAmountColumns holds). */
  kind: 'count' | 'number' | 'money';
  label: Label;
  /** Series colour in the chart. */
  color?: string;
}

/**
 * A value read with each group that is neither grouped by nor summed (the group's last recognition
 * and its snapshot): shown and exported beside the measures, absent from the totals and the chart.
 */
export interface ReportAttributeDef {
  /** `image`: a stored upload path, answered as a signed address; `datetime`: an ISO time. */
  kind: 'datetime' | 'image';
  label: Label;
}

/**
 * What the page draws: `x` is a dimension; `series` is either another dimension (one series per
 * value, of the first measure listed) or `'measures'` (one series per listed measure, summed over
 * the other dimensions).
 */
export interface ReportChartDef {
  type: 'line' | 'bar' | 'pie' | 'table';
  x: string;
  series: 'measures' | string;
  measures: readonly string[];
  /** Bars of one x stacked into one column. */
  stacked?: boolean;
  /**
   * Given, the page offers a line / bar / pie switch, and a pie shares the range's total out: by
   * each value of a dimension (`measure` summed per value, e.g. per school), or between `measures`
   * that together make a whole (new and returning parents). Only what adds up to a whole is a pie.
   */
  pie?: ReportPieDef;
}

/** What a report's pie shares out over the whole range (ReportChartDef.pie). */
export type ReportPieDef = { by: string; measure: string } | { by: 'measures'; measures: readonly string[] };

/** The chart types a page may switch a report's chart between. */
export const SWITCHABLE_CHART_TYPES = ['line', 'bar', 'pie'] as const;
export type SwitchableChartType = (typeof SWITCHABLE_CHART_TYPES)[number];

/**
 * The chart a report draws as the given type: its own for line and bar; for a pie by a dimension,
 * that dimension as x and its measure; for a pie between measures, the report's x and those measures.
 */
export function chartAs(chart: ReportChartDef, type: SwitchableChartType): ReportChartDef {
  if (type !== 'pie' || !chart.pie) return { ...chart, type };
  const { pie } = chart;
  if (pie.by === 'measures' && 'measures' in pie) return { ...chart, type, series: 'measures', measures: pie.measures, stacked: false };
  return { ...chart, type, x: pie.by, series: 'measures', measures: [(pie as { measure: string }).measure], stacked: false };
}

export interface ReportDef {
  /** Family name of the seed's statistics calls: the API paths are /api/{name}/... */
  name: string;
  label: Label;
  /** The page(s) showing the report; calls need the frame, Export its `export` button. */
  views: readonly ViewDef[];
  /** Declared like resource fields (each with its `filter` mode), so the web reuses the filter bar. */
  filters: Record<string, FieldDef>;
  period?: ReportPeriodDef;
  dimensions: Record<string, ReportDimensionDef>;
  measures: Record<string, ReportMeasureDef>;
  /** Per-group values answered with the rows only (not by GetSummary's chart groups, not in totals). */
  attributes?: Record<string, ReportAttributeDef>;
  chart: ReportChartDef;
  defaultSort: { field: string; order: 'asc' | 'desc' };
  /** How a row reaches a school, so the caller's data scope applies (the source applies it). */
  scope: ScopeDef;
}

/** Declares a report; the identity function keeps literal types and reads well at the call site. */
export function defineReport<const T extends ReportDef>(def: T): T {
  return def;
}

/** The filter keys of the report's period: `dayFrom` / `dayTo`. */
export function periodKeysOf(def: ReportDef): { from: string; to: string } | undefined {
  return def.period ? { from: `${def.period.field}From`, to: `${def.period.field}To` } : undefined;
}

/** Dimensions and measures a caller may sort by. */
export function sortableKeysOf(def: ReportDef): string[] {
  return [...Object.keys(def.dimensions), ...Object.keys(def.measures)];
}

/** A row of a report answer: dimension values (and `${reference}Label`s) and measures. */
export type ReportRow = Record<string, unknown>;

/** The agent filter of every report: an account of type agent, by id. */
export const agentFilter: FieldDef = {
  kind: 'reference',
  family: 'User',
  display: 'name',
  optionsFilter: { type: 'agent' },
  label: { zh: '代理商', en: 'Agent' },
  filter: 'equals',
};
