/**
 * The one .xlsx writer: every export (a family's list, a report, a questionnaire's answers) streams
 * its rows through here (exceljs WorkbookWriter without shared strings, so memory stays flat), and
 * each column's kind decides what a cell is to Excel, LibreOffice or a script that reads the file:
 *
 * - `date` / `datetime` / `month`: real date cells, with the console's display format
 *   (`yyyy-mm-dd`, `yyyy-mm-dd hh:mm:ss`, `yyyy-mm`) and the wall time in China, not UTC: a workbook
 *   has no time zone, and its reader sees what the console showed.
 * - `money`: a number of yuan rounded to the fen, shown with two decimals.
 * - `number`: a number as it is.
 * - `duration`: a length of time given in seconds, written as Excel's time (a fraction of a day) shown
 *   `[h]:mm:ss`, so it reads as the console shows it and still sums.
 * - `text`: text, formatted as text (`@`), so ids, phone, card and serial numbers keep their leading
 *   zeros and are never turned into numbers when someone edits the cell.
 */
import { formatBusinessDate, formatBusinessDateTime } from '@campus/contract';
import ExcelJS from 'exceljs';
import { PassThrough } from 'node:stream';

/** What a column's cells are (module doc). */
export type CellKind = 'text' | 'number' | 'duration' | 'money' | 'date' | 'datetime' | 'month';

/** A column of a sheet: its key in the rows, its header, its kind and width in characters. */
export interface WorkbookColumn {
  key: string;
  header: string;
  kind: CellKind;
  width?: number;
}

/** A value as the callers have it: money in yuan, dates as `YYYY-MM-DD`, datetimes as instants (Date or ISO text). */
export type CellInput = string | number | boolean | Date | null | undefined;

/** Where `write` puts its rows. */
export interface SheetWriter {
  /** One row, by column key; `bold` for a totals row. */
  addRow(values: Record<string, CellInput>, options?: { bold?: boolean }): void;
}

/** One sheet of a workbook: its name, columns, and the function that writes its rows (it may read more rows meanwhile). */
export interface SheetSpec {
  name: string;
  columns: WorkbookColumn[];
  write(sheet: SheetWriter): Promise<void> | void;
}

/** The display format of each kind of column (Excel number formats). */
const FORMATS: Record<CellKind, string | undefined> = {
  text: '@',
  number: undefined,
  duration: '[h]:mm:ss',
  money: '0.00',
  date: 'yyyy-mm-dd',
  datetime: 'yyyy-mm-dd hh:mm:ss',
  month: 'yyyy-mm',
};

/** A Date whose UTC fields read as the given wall time: what an Excel date cell holds (it has no zone). */
function wallTime(text: string): Date | undefined {
  const match = /^(\d{4})-(\d{2})(?:-(\d{2}))?(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(text.trim());
  if (!match) return undefined;
  const [, year, month, day = '01', hour = '0', minute = '0', second = '0'] = match;
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second)));
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** The cell value of `value` in a column of `kind` (module doc); what cannot be read as its kind is written as text. */
export function typedCell(kind: CellKind, value: CellInput): string | number | Date | null {
  if (value === null || value === undefined || value === '') return null;
  switch (kind) {
    case 'money': {
      const yuan = Number(value);
      return Number.isFinite(yuan) ? Math.round(yuan * 100) / 100 : String(value);
    }
    case 'number': {
      const number = Number(value);
      return typeof value !== 'boolean' && Number.isFinite(number) ? number : String(value);
    }
    case 'duration': {
      const seconds = Number(value);
      return typeof value !== 'boolean' && Number.isFinite(seconds) ? seconds / 86_400 : String(value);
    }
    case 'datetime': {
      // An instant (as the database answers it), shown as the wall time in China, the console's business time.
      const instant = value instanceof Date ? value : new Date(String(value));
      if (Number.isNaN(instant.getTime())) return String(value);
      return wallTime(formatBusinessDateTime(instant, { seconds: true })) ?? String(value);
    }
    case 'date':
    case 'month': {
      if (value instanceof Date) return wallTime(formatBusinessDate(value)) ?? null;
      return (typeof value === 'string' && wallTime(value)) || String(value);
    }
    default:
      return String(value);
  }
}

/** Excel's limits on a sheet's name: 31 characters at most, none of \ / ? * [ ] : (a longer one makes a file Excel calls damaged). */
export function sheetNameOf(name: string): string {
  const cleaned = name.replace(/[\\/?*[\]:]/g, ' ').trim();
  return [...cleaned].slice(0, 31).join('').trim() || 'Sheet';
}

/**
 * Streams a workbook of the given sheets; the caller sends the returned stream as the reply body.
 * Read what may fail before calling this: once rows are being written, a failure can only cut the
 * stream, never answer an error envelope.
 */
export function streamWorkbook(sheets: readonly SheetSpec[]): PassThrough {
  const stream = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useSharedStrings: false, useStyles: true });
  const run = async () => {
    for (const spec of sheets) {
      const sheet = workbook.addWorksheet(sheetNameOf(spec.name));
      sheet.columns = spec.columns.map((column) => {
        const numFmt = FORMATS[column.kind];
        return { header: column.header, key: column.key, width: column.width ?? 14, ...(numFmt ? { style: { numFmt } } : {}) };
      });
      const header = sheet.getRow(1);
      header.font = { bold: true };
      // The header is text in every column, whatever the column's cells are.
      header.eachCell((cell) => (cell.numFmt = '@'));
      const kinds = new Map(spec.columns.map((column) => [column.key, column.kind]));
      await spec.write({
        addRow(values, options) {
          const cells: Record<string, string | number | Date | null> = {};
          for (const [key, value] of Object.entries(values)) cells[key] = typedCell(kinds.get(key) ?? 'text', value);
          const row = sheet.addRow(cells);
          if (options?.bold) row.font = { bold: true };
          row.commit();
        },
      });
      sheet.commit();
    }
    await workbook.commit();
  };
  run().catch((error: unknown) => stream.destroy(error instanceof Error ? error : new Error(String(error))));
  return stream;
}
