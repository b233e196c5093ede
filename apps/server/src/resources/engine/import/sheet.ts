/**
 * The rows of a workbook's first sheet, read as a stream (exceljs WorkbookReader): memory holds the
 * shared strings and one row at a time, never the sheet. The zip's bounds are checked before.
 */
import { IMPORT_LIMITS, type ImportColumn } from '@campus/contract';
import ExcelJS from 'exceljs';
import { Transform, type Readable } from 'node:stream';
import unzipper, { type CentralDirectory } from 'unzipper';
import { badRequest, msg } from '../../../platform/errors.js';
import { megabytesText } from '../../../platform/uploads.js';
import { cellText, columnByHeader, plainCell } from './cells.js';

/** One data row: its number in the sheet and its cells by column number (1-based). */
export interface SheetRow {
  number: number;
  cells: ReadonlyMap<number, string | number | boolean | Date>;
}

/** The columns a header row names, by column number; a header the family lacks, twice, or a required one missing answers 400. */
export function columnsOfHeader(header: SheetRow | undefined, columns: readonly ImportColumn[]): Map<number, { column: ImportColumn; header: string }> {
  if (!header || header.cells.size === 0) throw badRequest([], msg('import.noHeader'));
  const found = new Map<number, { column: ImportColumn; header: string }>();
  const seen = new Set<string>();
  for (const [index, cell] of header.cells) {
    const text = cellText(cell);
    if (text === '') continue;
    const column = columnByHeader(columns, text);
    if (!column) throw badRequest([], msg('import.unknownColumn', { name: text }));
    if (seen.has(column.name)) throw badRequest([], msg('import.duplicateColumn', { name: text }));
    seen.add(column.name);
    found.set(index, { column, header: text });
  }
  const missing = columns.find((column) => column.field.required && !seen.has(column.name));
  if (missing) throw badRequest([], msg('import.missingColumn', { name: missing.field.label }));
  return found;
}

/** The parts of exceljs's streaming reader used here: its own parsers of each workbook part, fed one part at a time. */
interface PartParsers {
  model?: { sheets?: { id: number; name: string; rId: string }[] };
  workbookRels?: { Id: string; Target: string }[];
  _parseRels(part: Readable): Promise<void>;
  _parseWorkbook(part: Readable): Promise<void>;
  _parseSharedStrings(part: Readable): AsyncGenerator<unknown>;
  _parseStyles(part: Readable): Promise<void>;
  _parseWorksheet(part: Readable, sheetNo: string): Generator<{ eventType: string; value: AsyncIterable<ExcelJS.Row> }>;
}

/**
 * Opens the parts of the workbook at `path` by the zip's central directory, each inflated under the
 * import's bound on unpacked bytes (counted over every part read, as checkZipBounds counts them).
 */
async function workbookParts(path: string) {
  let directory: CentralDirectory;
  try {
    directory = await unzipper.Open.file(path);
  } catch {
    throw badRequest([], msg('import.notXlsx'));
  }
  let unpacked = 0;
  return (name: string): Readable | undefined => {
    const file = directory.files.find((candidate) => candidate.type === 'File' && candidate.path === name);
    if (!file) return undefined;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        unpacked += chunk.length;
        if (unpacked > IMPORT_LIMITS.maxUnpackedBytes) done(badRequest([], msg('import.zipTooLarge', { size: megabytesText(IMPORT_LIMITS.maxUnpackedBytes) })));
        else done(null, chunk);
      },
    });
    return file.stream().on('error', (error: Error) => counted.destroy(error)).pipe(counted);
  };
}

/** The zip path of the workbook's first sheet (the first tab, as Excel shows it) and its number. */
function firstSheetOf(reader: PartParsers): { path: string; number: string } | undefined {
  const first = reader.model?.sheets?.[0];
  const target = first && reader.workbookRels?.find((rel) => rel.Id === first.rId)?.Target;
  const number = target && /sheet(\d+)\.xml$/.exec(target)?.[1];
  if (!target || !number) return undefined;
  // Targets are relative to xl/ unless they start at the package root.
  return { path: target.startsWith('/') ? target.slice(1) : `xl/${target}`, number };
}

/**
 * Yields the first sheet's rows with at least one cell, header first; more than `maxRows` data rows
 * answers 400 as soon as the next one is read.
 *
 * exceljs's WorkbookReader reads the zip in one pass from the front and now and then loses its last
 * part (exceljs#3064): with xl/workbook.xml stored last, as exceljs itself writes it, the read fails
 * one time in a few hundred. So the parts are opened here by the central directory and handed to the
 * reader's own parsers in the order they depend on each other; the sheet is still read row by row.
 */
export async function* sheetRows(path: string, maxRows: number = IMPORT_LIMITS.maxRows): AsyncGenerator<SheetRow> {
  const part = await workbookParts(path);
  // Internal parsers of exceljs 4.4 (the version the lock file pins): see the comment above.
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(undefined as unknown as Readable, { sharedStrings: 'cache', hyperlinks: 'ignore', styles: 'cache', worksheets: 'emit', entries: 'ignore' }) as unknown as PartParsers;
  const rels = part('xl/_rels/workbook.xml.rels');
  const book = part('xl/workbook.xml');
  if (!rels || !book) throw badRequest([], msg('import.noSheet'));
  await reader._parseRels(rels);
  await reader._parseWorkbook(book);
  const sharedStrings = part('xl/sharedStrings.xml');
  if (sharedStrings) for await (const _ of reader._parseSharedStrings(sharedStrings));
  const styles = part('xl/styles.xml');
  if (styles) await reader._parseStyles(styles);
  const sheet = firstSheetOf(reader);
  const sheetPart = sheet && part(sheet.path);
  if (!sheet || !sheetPart) throw badRequest([], msg('import.noSheet'));
  const [emitted] = [...reader._parseWorksheet(sheetPart, sheet.number)];
  let rows = 0;
  try {
    for await (const row of emitted!.value) {
      const cells = new Map<number, string | number | boolean | Date>();
      (row.values as unknown[]).forEach((value, index) => {
        const cell = plainCell(value);
        if (cell !== null && !(typeof cell === 'string' && cell.trim() === '')) cells.set(index, cell);
      });
      if (cells.size === 0) continue;
      rows += 1;
      // The header is not a data row.
      if (rows > maxRows + 1) throw badRequest([], msg('import.tooManyRows', { max: maxRows }));
      yield { number: row.number, cells };
    }
  } finally {
    sheetPart.destroy();
  }
}
