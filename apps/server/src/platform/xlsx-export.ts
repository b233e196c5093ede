/**
 * The one .xlsx writer: every export (a family's list, a report, a questionnaire's answers) streams
 * its rows through here (the sheet's XML written directly and compressed as it goes, so memory stays
 * flat; see streamWorkbook), and
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
import { PassThrough } from 'node:stream';
import { ZipWriter } from './zip-writer.js';

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

/** Excel's limits on a sheet's name: 31 characters at most, none of \ / ? * [ ] : (a longer one makes a file Excel calls damaged). */
export function sheetNameOf(name: string): string {
  const cleaned = name.replace(/[\\/?*[\]:]/g, ' ').trim();
  return [...cleaned].slice(0, 31).join('').trim() || 'Sheet';
}

// Markup, and the control characters XML 1.0 does not allow (a cell holding one makes the file unreadable).
// eslint-disable-next-line no-control-regex -- these control characters are what the pattern is for
const NEEDS_ESCAPE = /[&<>"\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/;
// eslint-disable-next-line no-control-regex -- as above
const ESCAPED = /[&<>"\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

function escapeXml(text: string): string {
  return NEEDS_ESCAPE.test(text) ? text.replace(ESCAPED, (c) => ENTITIES[c] ?? '') : text;
}

/** Number formats of the fixed style table: General, then each kind's format (built-in ids where Excel has one). */
const NUMBER_FORMATS: readonly { code: string | undefined; id: number }[] = [
  { code: undefined, id: 0 },
  { code: '@', id: 49 },
  { code: '0.00', id: 2 },
  { code: 'yyyy-mm-dd', id: 164 },
  { code: 'yyyy-mm-dd hh:mm:ss', id: 165 },
  { code: 'yyyy-mm', id: 166 },
  { code: '[h]:mm:ss', id: 167 },
];

/** The cell style (index into cellXfs) of a number format, plain or bold: every format twice, plain then bold. */
function styleOf(format: string | undefined, bold: boolean): number {
  const index = NUMBER_FORMATS.findIndex((f) => f.code === format);
  return index * 2 + (bold ? 1 : 0);
}

const STYLES =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
  '<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
  `<numFmts count="${NUMBER_FORMATS.filter((f) => f.id >= 164).length}">` +
  NUMBER_FORMATS.filter((f) => f.id >= 164)
    .map((f) => `<numFmt numFmtId="${f.id}" formatCode="${escapeXml(f.code!)}"/>`)
    .join('') +
  '</numFmts>' +
  '<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font><font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  `<cellXfs count="${NUMBER_FORMATS.length * 2}">` +
  NUMBER_FORMATS.flatMap((f) =>
    [0, 1].map(
      (font) =>
        `<xf numFmtId="${f.id}" fontId="${font}" fillId="0" borderId="0" xfId="0"${f.id ? ' applyNumberFormat="1"' : ''}${font ? ' applyFont="1"' : ''}/>`,
    ),
  ).join('') +
  '</cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>';

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PACKAGE_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';

/** A column's letters (0 → A, 26 → AA). */
function columnLetters(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

const MS_PER_DAY = 86_400_000;
/** Days from Excel's epoch (1899-12-30) to 1970-01-01. */
const UNIX_EPOCH_SERIAL = 25_569;

/** One cell's XML, or '' for no cell; `ref` is its address, `style` its cellXfs index. */
function cellXml(ref: string, style: number, value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined) return '';
  const s = style ? ` s="${style}"` : '';
  if (typeof value === 'number') return `<c r="${ref}"${s}><v>${value}</v></c>`;
  // A date cell holds the serial of its wall time (typedCell's Date reads as the wall time in UTC).
  if (value instanceof Date) return `<c r="${ref}"${s}><v>${value.getTime() / MS_PER_DAY + UNIX_EPOCH_SERIAL}</v></c>`;
  return `<c r="${ref}"${s} t="str"><v>${escapeXml(value)}</v></c>`;
}

/** The package's fixed parts for these sheet names: content types, relationships, workbook, styles. */
function packageParts(names: readonly string[]): [string, string][] {
  const sheets = names.map((name, i) => ({ name, part: `worksheets/sheet${i + 1}.xml`, id: `rId${i + 2}` }));
  return [
    [
      '[Content_Types].xml',
      XML_HEAD +
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
        '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
        sheets.map((s) => `<Override PartName="/xl/${s.part}" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`).join('') +
        '</Types>',
    ],
    [
      '_rels/.rels',
      XML_HEAD +
        `<Relationships xmlns="${PACKAGE_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ],
    [
      'xl/workbook.xml',
      XML_HEAD +
        `<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><bookViews><workbookView/></bookViews><sheets>` +
        sheets.map((s, i) => `<sheet name="${escapeXml(s.name)}" sheetId="${i + 1}" r:id="${s.id}"/>`).join('') +
        '</sheets></workbook>',
    ],
    [
      'xl/_rels/workbook.xml.rels',
      XML_HEAD +
        `<Relationships xmlns="${PACKAGE_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/styles" Target="styles.xml"/>` +
        sheets.map((s) => `<Relationship Id="${s.id}" Type="${REL_NS}/worksheet" Target="${s.part}"/>`).join('') +
        '</Relationships>',
    ],
    ['xl/styles.xml', STYLES],
  ];
}

/**
 * Streams a workbook of the given sheets; the caller sends the returned stream as the reply body.
 * Read what may fail before calling this: once rows are being written, a failure can only cut the
 * stream, never answer an error envelope.
 *
 * The sheet's XML is written here directly (typed cells over a fixed style table) and compressed as
 * it goes (ZipWriter): exceljs's row and cell objects and its per-row XML cost most of a large
 * export's CPU, and its fresh buffer per 64 KiB of XML most of its memory (docs/decisions.md).
 */
export function streamWorkbook(sheets: readonly SheetSpec[]): PassThrough {
  const stream = new PassThrough();
  const names = sheets.map((spec) => sheetNameOf(spec.name));
  const run = async () => {
    const zip = new ZipWriter(stream);
    for (const [path, text] of packageParts(names)) zip.addFile(path, text);
    for (const [index, spec] of sheets.entries()) {
      const entry = zip.openEntry(`xl/worksheets/sheet${index + 1}.xml`);
      const columns = spec.columns;
      const letters = columns.map((_, i) => columnLetters(i));
      const plain = columns.map((column) => styleOf(FORMATS[column.kind], false));
      const bold = columns.map((column) => styleOf(FORMATS[column.kind], true));
      const header = styleOf('@', true);
      entry.write(
        XML_HEAD +
          `<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` +
          (columns.length > 0
            ? '<cols>' +
              columns.map((column, i) => `<col min="${i + 1}" max="${i + 1}" width="${column.width ?? 14}" style="${plain[i]}" customWidth="1"/>`).join('') +
              '</cols>'
            : '') +
          '<sheetData><row r="1">' +
          columns.map((column, i) => cellXml(`${letters[i]}1`, header, column.header)).join('') +
          '</row>',
      );
      let rowNumber = 1;
      await spec.write({
        addRow(values, options) {
          rowNumber += 1;
          const ordered = Array.isArray(values);
          const styles = options?.bold ? bold : plain;
          let xml = `<row r="${rowNumber}">`;
          for (let i = 0; i < columns.length; i += 1) {
            const column = columns[i]!;
            const value = ordered ? (values as readonly CellInput[])[i] : (values as Record<string, CellInput>)[column.key];
            xml += cellXml(letters[i]! + rowNumber, styles[i]!, typedCell(column.kind, value));
          }
          entry.write(xml + '</row>');
        },
        drained: () => entry.drained(),
      });
      entry.write('</sheetData></worksheet>');
      await entry.finish();
    }
    zip.end();
  };
  run().catch((error: unknown) => stream.destroy(error instanceof Error ? error : new Error(String(error))));
  return stream;
}
