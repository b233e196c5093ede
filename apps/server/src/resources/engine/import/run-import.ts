/**
 * The dry run and the import of one staged workbook. Both read the sheet as a stream in batches and
 * check each batch as Add would; the import also inserts each batch's valid rows, all inside one
 * transaction with one operation-log entry, so a failure anywhere leaves nothing behind. A refused
 * import answers 400 with the preview in `data.preview`.
 */
import { IMPORT_LIMITS, importColumnsOf, isStoredElsewhere, type ImportCellError, type ImportPreview } from '@campus/contract';
import type { Database, Executor } from '../../../db/client.js';
import { AppError, badRequest, msg } from '../../../platform/errors.js';
import { ErrorCode } from '@campus/contract';
import type { EngineContext, Row } from '../context.js';
import { hooksOf } from '../hooks.js';
import { linkFieldsOf, linkTableNamed } from '../../../db/schema/link-table.js';
import { columnOf, toDb } from '../query.js';
import { tableOf } from '../registry.js';
import { recordOperation } from '../write.js';
import { RowChecker, type FileColumn, type PendingRow } from './check-rows.js';
import { columnsOfHeader, sheetRows } from './sheet.js';
import { checkZipBounds } from './zip-bounds.js';

/** Rows checked (and inserted) together: large enough to make queries few, small enough for PostgreSQL's 65,535 parameters. */
const BATCH_ROWS = 1000;

interface ImportRun {
  preview: ImportPreview;
  ids: number[];
}

/** The tally of a run: counts and the first cell errors. */
class Tally {
  total = 0;
  invalid = 0;
  errorCount = 0;
  readonly errors: ImportCellError[] = [];

  add(batch: PendingRow[]): void {
    this.total += batch.length;
    for (const row of batch) {
      if (row.errors.length === 0) continue;
      this.invalid += 1;
      this.errorCount += row.errors.length;
      for (const error of row.errors) if (this.errors.length < IMPORT_LIMITS.maxErrors) this.errors.push(error);
    }
  }

  preview(): ImportPreview {
    return { total: this.total, valid: this.total - this.invalid, invalid: this.invalid, errors: this.errors, truncated: this.errorCount > this.errors.length };
  }
}

/** The column values of a checked row, as Add stores them (links are written apart). */
function columnsOfRow(ctx: EngineContext, values: Row): Row {
  const out: Row = {};
  for (const [name, value] of Object.entries(values)) {
    const field = ctx.def.fields[name];
    if (!field || isStoredElsewhere(field) || field.kind === 'password') continue;
    out[name] = toDb(field, value);
  }
  return out;
}

/** Inserts a batch's valid rows and their links in the caller's transaction; answers their ids. */
async function insertRows(ctx: EngineContext, tx: Executor, rows: PendingRow[]): Promise<number[]> {
  if (rows.length === 0) return [];
  const table = tableOf(ctx.def);
  const inserted = await tx
    .insert(table)
    .values(rows.map((row) => columnsOfRow(ctx, row.values)))
    .returning({ id: columnOf(table, 'id') });
  const ids = inserted.map((row) => Number(row.id));
  for (const [name, field] of linkFieldsOf(ctx.def)) {
    const links = rows.flatMap((row, i) => (Array.isArray(row.values[name]) ? [...new Set(row.values[name] as unknown[])].map((target) => ({ [field.link.owner]: ids[i], [field.link.target]: Number(target) })) : []));
    if (links.length > 0) await tx.insert(linkTableNamed(field.link.table)).values(links).onConflictDoNothing();
  }
  const afterWrite = hooksOf(ctx.def).afterWrite;
  if (afterWrite) for (const [i, row] of rows.entries()) await afterWrite({ ...ctx, db: tx as Database }, { op: 'add', ids: [ids[i]!], values: row.values });
  return ids;
}

/** Reads, checks and (when `write`) inserts the file's rows in batches. */
async function readAndCheck(ctx: EngineContext, db: Executor, path: string, write: ((batch: PendingRow[]) => Promise<void>) | undefined): Promise<Tally> {
  const rows = sheetRows(path);
  const header = await rows.next();
  const fileColumns: FileColumn[] = [...columnsOfHeader(header.done ? undefined : header.value, importColumnsOf(ctx.def))].map(([index, { column, header: text }]) => ({ index, column, header: text }));
  const checker = new RowChecker(ctx, db, fileColumns);
  const tally = new Tally();
  let batch: PendingRow[] = [];
  const flush = async () => {
    await checker.check(batch);
    tally.add(batch);
    await write?.(batch);
    batch = [];
  };
  for await (const row of rows) {
    batch.push(checker.read(row));
    if (batch.length >= BATCH_ROWS) await flush();
  }
  if (batch.length > 0) await flush();
  if (tally.total === 0) throw badRequest([], msg('import.noRows'));
  return tally;
}

/** The dry run: every row checked, nothing written; answers the counts and the cell errors. */
export async function previewImport(ctx: EngineContext, path: string): Promise<ImportPreview> {
  await checkZipBounds(path);
  return (await readAndCheck(ctx, ctx.db, path, undefined)).preview();
}

/**
 * The import, in one transaction: with `skipInvalid` the valid rows are written and the others left
 * out; without it any invalid row writes nothing and answers 400 carrying the preview. One
 * operation-log entry names every row written.
 */
export async function runImport(ctx: EngineContext, path: string, options: { skipInvalid: boolean; fileName: string }): Promise<ImportRun> {
  await checkZipBounds(path);
  return ctx.db.transaction(async (tx) => {
    const ids: number[] = [];
    const txCtx = { ...ctx, db: tx as Database };
    let writing = true;
    const tally = await readAndCheck(txCtx, tx, path, async (batch) => {
      // Once a row is wrong and the caller wants all or nothing, the rest is only checked, for the answer.
      if (!options.skipInvalid && batch.some((row) => row.errors.length > 0)) writing = false;
      if (writing) ids.push(...(await insertRows(txCtx, tx, batch.filter((row) => row.errors.length === 0))));
    });
    const preview = tally.preview();
    if (!options.skipInvalid && preview.invalid > 0) throw new AppError(400, ErrorCode.Validation, msg('import.hasErrors', { count: preview.invalid }), { preview });
    if (ids.length === 0) throw new AppError(400, ErrorCode.Validation, msg('import.nothingValid'), { preview });
    await recordOperation(tx, txCtx, 'import', ids, { file: options.fileName, imported: ids.length, skipped: preview.invalid });
    return { preview, ids };
  });
}
