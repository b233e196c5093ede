/**
 * The rows of a workbook's first sheet, read as a stream (exceljs WorkbookReader): memory holds the
 * shared strings and one row at a time, never the sheet. The zip's bounds are checked before.
 */
import { IMPORT_LIMITS, type ImportColumn } from '@campus/contract';
import ExcelJS from 'exceljs';
import { createReadStream } from 'node:fs';
import { badRequest, msg } from '../../../platform/errors.js';
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

/**
 * Yields the first sheet's rows with at least one cell, header first; more than `maxRows` data rows
 * answers 400 as soon as the next one is read.
 */
export async function* sheetRows(path: string, maxRows: number = IMPORT_LIMITS.maxRows): AsyncGenerator<SheetRow> {
  const input = createReadStream(path);
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, { sharedStrings: 'cache', hyperlinks: 'ignore', styles: 'cache', worksheets: 'emit', entries: 'ignore' });
  let sheets = 0;
  let rows = 0;
  try {
    for await (const worksheet of reader) {
      sheets += 1;
      for await (const row of worksheet) {
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
      // Only the first sheet holds rows; the template's second one holds the examples and notes.
      break;
    }
  } finally {
    input.destroy();
  }
  if (sheets === 0) throw badRequest([], msg('import.noSheet'));
}
