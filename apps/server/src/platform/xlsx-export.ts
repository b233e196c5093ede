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
import { businessWallClock } from '@campus/contract';
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
  /** One row, by column key or as the values in column order; `bold` for a totals row. */
  addRow(values: Record<string, CellInput> | readonly CellInput[], options?: { bold?: boolean }): void;
  /** Resolves once the rows written so far have been compressed and taken by the reader: call it between batches so memory stays flat. */
  drained(): Promise<void>;
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
      return businessWallClock(instant);
    }
    case 'date':
    case 'month': {
      if (value instanceof Date) {
        const wall = businessWallClock(value);
        return new Date(Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate()));
      }
      return (typeof value === 'string' && wallTime(value)) || String(value);
    }
    default:
      return String(value);
  }
}

/**
 * One style object per column (and per kind of value where the column has no number format), given
 * to every cell of a plain row: exceljs remembers a style's id by the object, where each cell's own
 * copy made it render and look up the style's XML again for every cell (half the export's CPU).
 * Never for a bold row: setting a row's font writes into its cells' style objects.
 */
function sharedStyles(columns: readonly WorkbookColumn[]): (index: number, value: unknown) => Partial<ExcelJS.Style> {
  const byColumn = columns.map((column) => {
    const numFmt = FORMATS[column.kind];
    return numFmt ? { numFmt } : undefined;
  });
  // Without a number format exceljs picks one by the value's type (General for a number, none for text).
  const byType = columns.map(() => new Map<string, Partial<ExcelJS.Style>>());
  return (index, value) => {
    const fixed = byColumn[index];
    if (fixed) return fixed;
    const type = value === null || value === undefined ? 'null' : value instanceof Date ? 'date' : typeof value;
    const styles = byType[index]!;
    let style = styles.get(type);
    if (!style) styles.set(type, (style = {}));
    return style;
  };
}

/** The part of a writable stream `drainOf` needs, whichever stream library made it. */
interface EntryStream {
  _writableState: { needDrain?: boolean };
  once(event: string, listener: () => void): unknown;
  removeListener(event: string, listener: () => void): unknown;
}

function isEntryStream(value: unknown): value is EntryStream {
  const candidate = value as Partial<EntryStream> | null;
  return typeof candidate?.once === 'function' && typeof candidate.removeListener === 'function' && typeof candidate._writableState === 'object';
}

/** Resolves when `entry` has room again (at once when it has), or when it or the reply `out` is finished, closed or failed. */
function drainOf(entry: EntryStream, out: PassThrough): Promise<void> {
  if (!entry._writableState.needDrain || out.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const events = ['drain', 'close', 'error', 'finish'];
    const done = () => {
      for (const event of events) entry.removeListener(event, done);
      out.off('close', done);
      resolve();
    };
    for (const event of events) entry.once(event, done);
    out.once('close', done);
  });
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
      const columns = spec.columns;
      const styleOf = sharedStyles(columns);
      // A row's own style is looked up the same way as a cell's: one object for every plain row.
      const plainRow: Partial<ExcelJS.Style> = {};
      await spec.write({
        addRow(values, options) {
          const ordered = Array.isArray(values);
          const cells: (string | number | Date | null | undefined)[] = new Array(columns.length);
          for (let i = 0; i < columns.length; i += 1) {
            const column = columns[i]!;
            const value = ordered ? (values as readonly CellInput[])[i] : (values as Record<string, CellInput>)[column.key];
            // A key the row does not have stays without a cell, as exceljs does for an object row.
            cells[i] = value === undefined && !ordered ? undefined : typedCell(column.kind, value);
          }
          const row = sheet.addRow(cells);
          if (options?.bold) row.font = { bold: true };
          else {
            // Row's `style` is real in exceljs but missing from its types.
            (row as unknown as { style: Partial<ExcelJS.Style> }).style = plainRow;
            for (let i = 0; i < cells.length; i += 1) if (cells[i] !== undefined) row.getCell(i + 1).style = styleOf(i, cells[i]);
          }
          row.commit();
        },
        async drained() {
          // exceljs writes the sheet's XML into the zip's entry stream without waiting for it (and that
          // stream is readable-stream's, not node's): the rows the compressor or the reader has not taken
          // yet pile up there. Its buffer drains only as fast as the zip is read (pipes wait downstream).
          const inner = (sheet as unknown as { _stream?: { pipes?: unknown } })._stream?.pipes;
          for (const pipe of Array.isArray(inner) ? (inner as unknown[]) : []) if (isEntryStream(pipe)) await drainOf(pipe, stream);
        },
      });
      sheet.commit();
    }
    await workbook.commit();
  };
  run().catch((error: unknown) => stream.destroy(error instanceof Error ? error : new Error(String(error))));
  return stream;
}
