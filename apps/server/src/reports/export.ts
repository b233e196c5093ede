/** A report's groups as a real .xlsx in the caller's language, closed by a bold totals row. */
import { type ReportDef, type ReportDimensionDef, type ReportGrain, type ReportRow } from '@campus/contract';
import type { PassThrough } from 'node:stream';
import { streamWorkbook, type CellInput, type CellKind } from '../platform/xlsx-export.js';
import type { ReportContext } from './context.js';

const TOTALS_LABEL = { zh: '合计', en: 'Total' } as const;

/** A period start (YYYY-MM-DD) as people name it: the day, the week's Monday, or YYYY-MM. */
export function periodLabel(start: string, grain: ReportGrain): string {
  return grain === 'month' ? start.slice(0, 7) : start;
}

/** The cell of a dimension value in the caller's locale. */
export function dimensionCell(dimension: ReportDimensionDef, name: string, row: ReportRow, locale: 'zh' | 'en', grain: ReportGrain): string {
  const value = row[name];
  if (value === null || value === undefined) return '-';
  switch (dimension.kind) {
    case 'period':
      return periodLabel(String(value), grain);
    case 'enum':
      return dimension.options.find((o) => String(o.value) === String(value))?.[locale] ?? String(value);
    case 'reference':
      return String(row[`${name}Label`] ?? value);
    case 'text':
      return String(value);
  }
}

/** The kind of cell of a dimension: periods are dates (months shown as `yyyy-mm`), the rest text. */
function dimensionKind(dimension: ReportDimensionDef, grain: ReportGrain): CellKind {
  if (dimension.kind !== 'period') return 'text';
  return grain === 'month' ? 'month' : 'date';
}

/** The value of a dimension for the sheet: a period's start as a date, the rest as the page shows it. */
function dimensionValue(dimension: ReportDimensionDef, name: string, row: ReportRow, locale: 'zh' | 'en', grain: ReportGrain): CellInput {
  const value = row[name];
  if (dimension.kind === 'period' && value !== null && value !== undefined) return String(value).slice(0, 10);
  return dimensionCell(dimension, name, row, locale, grain);
}

/**
 * Streams the workbook of the given groups and totals through the one workbook writer, a column per
 * grouped dimension (every one unless `groupBy` names some); the caller sends the stream as the reply body.
 */
export function reportWorkbook(
  ctx: ReportContext,
  def: ReportDef,
  answer: { items: ReportRow[]; totals: Record<string, number> },
  grain: ReportGrain,
  groupBy: readonly string[] = Object.keys(def.dimensions),
): PassThrough {
  const dimensions = Object.entries(def.dimensions).filter(([name]) => groupBy.includes(name));
  // Images stay on the page: a workbook holds the time, not a link that expires.
  const attributes = Object.entries(def.attributes ?? {}).filter(([, a]) => a.kind !== 'image');
  const measureCells = (values: Record<string, unknown>) =>
    Object.fromEntries(ctx.measures.map(([name, m]) => [name, m.kind === 'money' ? Number(values[name] ?? 0) / 100 : Number(values[name] ?? 0)]));
  return streamWorkbook([
    {
      name: def.label[ctx.locale],
      columns: [
        ...dimensions.map(([name, d]) => ({ key: name, header: d.label[ctx.locale], kind: dimensionKind(d, grain), width: 20 })),
        ...ctx.measures.map(([name, m]) => ({ key: name, header: m.label[ctx.locale], kind: m.kind === 'money' ? ('money' as const) : ('number' as const), width: 14 })),
        ...attributes.map(([name, a]) => ({ key: name, header: a.label[ctx.locale], kind: 'datetime' as const, width: 22 })),
      ],
      write(sheet) {
        for (const row of answer.items) {
          const attributeCells = Object.fromEntries(attributes.map(([name]) => [name, row[name] ? String(row[name]) : null]));
          sheet.addRow({ ...Object.fromEntries(dimensions.map(([name, d]) => [name, dimensionValue(d, name, row, ctx.locale, grain)])), ...measureCells(row), ...attributeCells });
        }
        sheet.addRow({ [dimensions[0]![0]]: TOTALS_LABEL[ctx.locale], ...measureCells(answer.totals) }, { bold: true });
      },
    },
  ]);
}
