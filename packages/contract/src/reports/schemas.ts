/** zod schemas derived from a report declaration: Search body, Export and GetSummary queries. */
import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../constants.js';
import { filterShapeOf } from '../resources/schemas.js';
import { messageText } from '../messages.js';
import {
  MAX_RANGE_DAYS,
  REPORT_GRAINS,
  REPORT_GRAIN_LABELS,
  periodKeysOf,
  sortableKeysOf,
  type ReportDef,
  type ReportDimensionDef,
  type ReportGrain,
} from './define.js';

const DAY_MS = 86_400_000;

/** Days from one YYYY-MM-DD to another, both included. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

function filterShape(def: ReportDef): Record<string, z.ZodType> {
  const shape: Record<string, z.ZodType> = { ...filterShapeOf({ fields: def.filters }) };
  if (def.period) {
    const grains = def.period.grains as readonly [ReportGrain, ...ReportGrain[]];
    shape.grain = z.enum(grains.length > 0 ? grains : REPORT_GRAINS).default(def.period.defaultGrain);
  }
  return shape;
}

/**
 * Checks the period: its start is not after its end, and it holds no more periods than the grain
 * allows (a year of days, three years of weeks, ten years of months).
 */
function checkPeriod(def: ReportDef) {
  return (value: Record<string, unknown>, context: z.RefinementCtx) => {
    const keys = periodKeysOf(def);
    if (!keys) return;
    const from = value[keys.from];
    const to = value[keys.to];
    if (typeof from !== 'string' || typeof to !== 'string') return;
    if (from > to) {
      context.addIssue({ code: 'custom', path: [keys.to], message: messageText('report.rangeReversed') });
      return;
    }
    const grain = (value.grain as ReportGrain | undefined) ?? def.period!.defaultGrain;
    if (daysBetween(from, to) > MAX_RANGE_DAYS[grain]) {
      context.addIssue({ code: 'custom', path: [keys.from], message: messageText('report.rangeTooLong', { grain: REPORT_GRAIN_LABELS[grain], days: MAX_RANGE_DAYS[grain] }) });
    }
  };
}

function sortShape(def: ReportDef) {
  const keys = sortableKeysOf(def) as [string, ...string[]];
  return { sortField: z.enum(keys).optional(), sortOrder: z.enum(['asc', 'desc']).optional() };
}

/** Body of POST /api/{Report}/Search; unknown keys answer 400. */
export function reportSearchSchemaOf(def: ReportDef) {
  return z
    .strictObject({
      pageIndex: z.coerce.number().int().min(1).default(1),
      pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
      ...sortShape(def),
      ...filterShape(def),
    })
    .superRefine(checkPeriod(def));
}

/**
 * Query of GET /api/{Report}/Export: the Search filters, the sort, the caller's language and, as
 * GetSummary's, the dimensions to group by (all of them when absent): a chart's table exports as shown.
 */
export function reportExportQuerySchemaOf(def: ReportDef) {
  return z
    .strictObject({ view: z.string().max(64).optional(), lang: z.enum(['zh', 'en']).optional(), groupBy: groupBySchema(def), ...sortShape(def), ...filterShape(def) })
    .superRefine(checkPeriod(def));
}

/** `groupBy`: declared dimensions as a comma-separated list. */
function groupBySchema(def: ReportDef) {
  const dimensions = Object.keys(def.dimensions) as [string, ...string[]];
  return z.preprocess((v) => (typeof v === 'string' ? v.split(',').filter(Boolean) : v), z.array(z.enum(dimensions)).min(1).max(dimensions.length).optional());
}

/**
 * Query of GET /api/{Report}/GetSummary: the filters and `groupBy`, the dimensions to group by
 * (comma-separated; all of them when absent), e.g. the chart's x and series.
 */
export function reportSummaryQuerySchemaOf(def: ReportDef) {
  return z
    .strictObject({ view: z.string().max(64).optional(), lang: z.enum(['zh', 'en']).optional(), groupBy: groupBySchema(def), ...sortShape(def), ...filterShape(def) })
    .superRefine(checkPeriod(def));
}

/** The dimensions the chart groups by: x, and the series when it is a dimension. */
export function chartDimensionsOf(def: ReportDef): string[] {
  return def.chart.series === 'measures' ? [def.chart.x] : [def.chart.x, def.chart.series];
}

/** The value of one dimension on the wire: a period's start day, an enum value, a row id or a text. */
function dimensionWireSchema(dimension: ReportDimensionDef): z.ZodType {
  switch (dimension.kind) {
    case 'period':
      return z.string();
    case 'enum':
      return z.union([z.number(), z.string()]).meta({ enum: dimension.options.map((option) => option.value) });
    case 'reference':
      // A row id, or the row's key where the source groups by one (a product model's code).
      return z.union([z.number(), z.string()]);
    case 'text':
      return z.string();
  }
}

/**
 * One group of a report answer: its dimensions (each reference with `${dimension}Label`) and measures.
 * Dimensions not grouped by and measures hidden by hideAmountColumns are absent.
 */
export function reportRowSchemaOf(def: ReportDef) {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, dimension] of Object.entries(def.dimensions)) {
    shape[name] = dimensionWireSchema(dimension).nullable().optional();
    if (dimension.kind === 'reference') shape[`${name}Label`] = z.string().nullable().optional();
  }
  for (const name of Object.keys(def.measures)) shape[name] = z.number().optional();
  for (const name of Object.keys(def.attributes ?? {})) shape[name] = z.string().nullable().optional();
  return z.object(shape);
}

/** Answer of POST /api/{Report}/Search with its rows typed by the declaration (reportSearchAnswerSchema). */
export function reportSearchAnswerSchemaOf(def: ReportDef) {
  return reportSearchAnswerSchema.extend({ items: z.array(reportRowSchemaOf(def)) });
}

/** Answer of GET /api/{Report}/GetSummary with its rows typed by the declaration. */
export function reportSummaryAnswerSchemaOf(def: ReportDef) {
  return reportSummaryAnswerSchema.extend({ items: z.array(reportRowSchemaOf(def)) });
}

/**
 * The answer of `POST /api/{Report}/Search`: one page of groups, whether another page follows, their
 * number, and the totals over all of them. As in a resource Search (searchAnswerSchema), `total` is
 * exact up to the cap, `totalIsCapped` says when it is a floor and `totalIsEstimate` when it is the
 * database's estimate of many groups instead of a count (shown as "about N").
 */
export const reportSearchAnswerSchema = z.object({
  items: z.array(z.record(z.string(), z.unknown())),
  total: z.number(),
  totalIsCapped: z.boolean(),
  totalIsEstimate: z.boolean(),
  hasMore: z.boolean(),
  totals: z.record(z.string(), z.number()),
});
export type ReportSearchAnswer = z.infer<typeof reportSearchAnswerSchema>;

/** The answer of `GET /api/{Report}/GetSummary`: every group (no paging) and the totals. */
export const reportSummaryAnswerSchema = reportSearchAnswerSchema.omit({ total: true, totalIsCapped: true, totalIsEstimate: true, hasMore: true });
export type ReportSummaryAnswer = z.infer<typeof reportSummaryAnswerSchema>;
