/**
 * Export: the Search filters streamed into a real .xlsx (exceljs WorkbookWriter without shared
 * strings), read from the database in keyset batches so memory stays flat at 100 000 rows.
 */
import { formatBusinessDateTime, isExported, type FieldDef } from '@campus/contract';
import ExcelJS from 'exceljs';
import { lt, gt, type SQL } from 'drizzle-orm';
import { PassThrough } from 'node:stream';
import { visibleFields, type EngineContext, type Locale, type Row } from './context.js';
import { hooksOf } from './hooks.js';
import { readLinks } from './links.js';
import { allConditions, columnOf, orderOf, selectRows } from './query.js';
import { tableOf } from './registry.js';

const BATCH = 2000;


/** The cell value of a field for people, in the caller's locale. */
export function cellValue(field: FieldDef, name: string, row: Row, locale: Locale): string | number | null {
  const value = row[name];
  if (value === null || value === undefined) return null;
  switch (field.kind) {
    case 'money':
      return Number(value) / 100;
    case 'enum': {
      const option = field.options.find((o) => String(o.value) === String(value));
      return option ? option[locale] : String(value);
    }
    case 'bool': {
      const label = value ? (field.trueLabel ?? { zh: '是', en: 'Yes' }) : (field.falseLabel ?? { zh: '否', en: 'No' });
      return label[locale];
    }
    case 'reference': {
      const label = row[`${name}Label`];
      if (Array.isArray(label)) return label.join(locale === 'zh' ? '、' : ', ');
      return (label as string | undefined) ?? String(value);
    }
    case 'datetime':
      return formatBusinessDateTime(value instanceof Date ? value : String(value), { seconds: true });
    case 'number':
      return field.multiple && Array.isArray(value) ? value.join(', ') : Number(value);
    case 'json':
      return JSON.stringify(value);
    default:
      return String(value);
  }
}

/** A key order of its own (log families: time, then id): each batch continues after the last row read. */
export interface ExportPaging {
  order: SQL[];
  after: (row: Row) => SQL;
}

/**
 * Streams the workbook; the caller sends the returned stream as the reply body. The first batch is
 * read before the stream is answered: a query that fails then answers the error envelope, where a
 * failure after the 200 had started could only cut the connection.
 */
export async function exportWorkbook(
  ctx: EngineContext,
  where: SQL | undefined,
  sort: { field?: string; order?: 'asc' | 'desc' },
  maxCount: number,
  paging?: ExportPaging,
): Promise<PassThrough> {
  const table = tableOf(ctx.def);
  const { afterRead } = hooksOf(ctx.def);
  const idColumn = columnOf(table, 'id');
  const byId = (sort.field ?? ctx.def.defaultSort?.field ?? 'id') === 'id';
  const ascending = (sort.order ?? ctx.def.defaultSort?.order ?? 'desc') === 'asc';

  /** The batch after `lastRow` (`written` rows so far): the rows read, and the same rows completed for the sheet. */
  const readBatch = async (written: number, lastRow: Row | undefined): Promise<{ found: Row[]; rows: Row[]; limit: number }> => {
    const limit = Math.min(BATCH, maxCount - written);
    // Keyset paging when the order is by id or the caller's key (constant cost per batch); offset batches otherwise.
    const lastId = lastRow && Number(lastRow.id);
    const idKeyset = byId && lastId !== undefined ? (ascending ? gt(idColumn, lastId) : lt(idColumn, lastId)) : undefined;
    const keyset = paging ? lastRow && paging.after(lastRow) : idKeyset;
    let query = selectRows(ctx, allConditions(where, keyset))
      .orderBy(...(paging?.order ?? orderOf(ctx, table, sort.field, sort.order)))
      .limit(limit);
    if (!byId && !paging) query = query.offset(written);
    const found = (await query) as Row[];
    const linked = await readLinks(ctx, found);
    return { found, rows: afterRead && found.length > 0 ? await afterRead(ctx, linked) : linked, limit };
  };
  let batch = await readBatch(0, undefined);

  const stream = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useSharedStrings: false, useStyles: true });
  const sheet = workbook.addWorksheet(ctx.def.label[ctx.locale]);
  const fields = visibleFields(ctx).filter(([, f]) => isExported(f));
  sheet.columns = fields.map(([name, f]) => ({
    header: f.label[ctx.locale],
    key: name,
    width: Math.max(12, Math.min(40, (f.width ?? 120) / 7)),
    style: f.kind === 'money' ? { numFmt: '0.00' } : {},
  }));
  sheet.getRow(1).font = { bold: true };

  const run = async () => {
    let written = 0;
    for (;;) {
      for (const row of batch.rows) {
        sheet.addRow(Object.fromEntries(fields.map(([name, f]) => [name, cellValue(f, name, row, ctx.locale)]))).commit();
      }
      written += batch.rows.length;
      if (batch.found.length < batch.limit || written >= maxCount) break;
      batch = await readBatch(written, batch.found[batch.found.length - 1]);
    }
    sheet.commit();
    await workbook.commit();
  };
  run().catch((error: unknown) => stream.destroy(error instanceof Error ? error : new Error(String(error))));
  return stream;
}
