/** How report values read in the caller's locale: periods, dimension values and measures. */
import { periodKeysOf, type ReportDef, type ReportDimensionDef, type ReportGrain, type ReportMeasureDef, type ReportRow, type VisibilityProbes } from '@campus/contract';
import { numberLocaleOf, type Locale } from '../lib/i18n';
import { businessNow } from '../resources/shared/field-values';

/** The grain switch's labels. */
export const GRAIN_KEYS = { day: 'report.grainDay', week: 'report.grainWeek', month: 'report.grainMonth' } as const;

/** The measures the caller sees: money only when the caller's probes are known and do not hide amounts. */
export function shownMeasures(def: Pick<ReportDef, 'measures'>, probes: VisibilityProbes | undefined): [string, ReportMeasureDef][] {
  return Object.entries(def.measures).filter(([, m]) => !(m.kind === 'money' && probes?.hideAmountColumns !== false));
}

/** The period range the filters ask for (YYYY-MM-DD, both ends), to draw periods without rows; undefined without one. */
export function periodRangeOf(def: ReportDef, filters: Record<string, unknown>): { from: string; to: string } | undefined {
  const keys = periodKeysOf(def);
  return keys && typeof filters[keys.from] === 'string' && typeof filters[keys.to] === 'string' ? { from: String(filters[keys.from]), to: String(filters[keys.to]) } : undefined;
}

/** A period start (YYYY-MM-DD) as people name it: the day, the Monday of the week, or YYYY-MM. */
export function periodLabel(start: string, grain: ReportGrain): string {
  return grain === 'month' ? start.slice(0, 7) : start;
}

/** The text of a dimension value of a row; `none` when the row has none (devices without an agent). */
export function dimensionText(dimension: ReportDimensionDef, name: string, row: ReportRow, options: { locale: Locale; grain: ReportGrain; none: string }): string {
  const value = row[name];
  if (value === null || value === undefined) return options.none;
  switch (dimension.kind) {
    case 'period':
      return periodLabel(String(value), options.grain);
    case 'enum': {
      const option = dimension.options.find((o) => String(o.value) === String(value));
      return option ? (options.locale === 'en' ? option.en : option.zh) : String(value);
    }
    case 'reference':
      return String(row[`${name}Label`] ?? value);
    case 'text':
      return String(value);
  }
}

/** A measure as shown: counts with thousands separators, money in yuan with two decimals. */
export function measureText(measure: ReportMeasureDef, value: unknown, locale: Locale): string {
  const number = Number(value ?? 0);
  const tag = numberLocaleOf(locale);
  if (measure.kind === 'money') return (number / 100).toLocaleString(tag, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return number.toLocaleString(tag);
}

/** The chart's value of a measure: yuan for money, the number otherwise. */
export function measureValue(measure: ReportMeasureDef, value: unknown): number {
  const number = Number(value ?? 0);
  return measure.kind === 'money' ? number / 100 : number;
}

/** Every period start from `from` to `to` at the grain, so a line has a point (0) where nothing happened. */
export function periodsBetween(from: string, to: string, grain: ReportGrain): string[] {
  const start = new Date(`${from}T00:00:00Z`);
  if (grain === 'week') start.setUTCDate(start.getUTCDate() - ((start.getUTCDay() + 6) % 7));
  if (grain === 'month') start.setUTCDate(1);
  const periods: string[] = [];
  for (const at = start; at.toISOString().slice(0, 10) <= to && periods.length < 1000; ) {
    periods.push(at.toISOString().slice(0, 10));
    if (grain === 'day') at.setUTCDate(at.getUTCDate() + 1);
    else if (grain === 'week') at.setUTCDate(at.getUTCDate() + 7);
    else at.setUTCMonth(at.getUTCMonth() + 1);
  }
  return periods;
}

/** The filter bar's starting values: the report's default days, or months, up to today in China. */
export function initialValuesOf(def: Pick<ReportDef, 'period'>, now: Date = new Date()): Record<string, unknown> {
  if (!def.period) return {};
  const today = businessNow(now);
  const from = def.period.defaultDays ? today.subtract(def.period.defaultDays - 1, 'day') : today.subtract(def.period.defaultMonths - 1, 'month').startOf('month');
  return { [def.period.field]: [from, today] };
}
