/** A report's groups as a real .xlsx in the caller's language, closed by a bold totals row. */
import { formatBusinessDateTime, type ReportDef, type ReportDimensionDef, type ReportGrain, type ReportRow } from '@campus/contract';
import ExcelJS from 'exceljs';
import { PassThrough } from 'node:stream';
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

/** Streams the workbook of the given groups and totals; the caller sends the stream as the reply body. */
export function reportWorkbook(ctx: ReportContext, def: ReportDef, answer: { items: ReportRow[]; totals: Record<string, number> }, grain: ReportGrain): PassThrough {
  const stream = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useSharedStrings: false, useStyles: true });
  const sheet = workbook.addWorksheet(def.label[ctx.locale]);
  const dimensions = Object.entries(def.dimensions);
  const attributes = Object.entries(def.attributes ?? {}).filter(([, a]) => a.kind !== 'image');
  sheet.columns = [
    ...dimensions.map(([name, d]) => ({ header: d.label[ctx.locale], key: name, width: 20 })),
    ...ctx.measures.map(([name, m]) => ({ header: m.label[ctx.locale], key: name, width: 14, style: m.kind === 'money' ? { numFmt: '0.00' } : {} })),
    // Images stay on the page: a workbook holds the time, not a link that expires.
    ...attributes.map(([name, a]) => ({ header: a.label[ctx.locale], key: name, width: 22 })),
  ];
  sheet.getRow(1).font = { bold: true };
  const measureCells = (values: Record<string, unknown>) =>
    Object.fromEntries(ctx.measures.map(([name, m]) => [name, m.kind === 'money' ? Number(values[name] ?? 0) / 100 : Number(values[name] ?? 0)]));
  const write = async () => {
    for (const row of answer.items) {
      const attributeCells = Object.fromEntries(attributes.map(([name]) => [name, row[name] ? formatBusinessDateTime(String(row[name])) : '-']));
      sheet.addRow({ ...Object.fromEntries(dimensions.map(([name, d]) => [name, dimensionCell(d, name, row, ctx.locale, grain)])), ...measureCells(row), ...attributeCells }).commit();
    }
    const totals = sheet.addRow({ [dimensions[0]![0]]: TOTALS_LABEL[ctx.locale], ...measureCells(answer.totals) });
    totals.font = { bold: true };
    totals.commit();
    sheet.commit();
    await workbook.commit();
  };
  write().catch((error: unknown) => stream.destroy(error instanceof Error ? error : new Error(String(error))));
  return stream;
}
