/**
 * Export: the Search filters streamed into a real .xlsx through the one workbook writer
 * (platform/xlsx-export.ts), read from the database in keyset batches so memory stays flat at 100 000 rows.
 */
import { formatServerMessage, isExported, type FieldDef } from '@campus/contract';
import { gt, lt, type SQL } from 'drizzle-orm';
import type { PassThrough } from 'node:stream';
import { streamWorkbook, type CellInput, type CellKind } from '../../platform/xlsx-export.js';
import { visibleFields, type EngineContext, type Locale, type Row } from './context.js';
import { hooksOf } from './hooks.js';
import { readLinks } from './links.js';
import { allConditions, arrayRowsOf, columnOf, orderOf, selection } from './query.js';
import { tableOf } from './registry.js';

const BATCH = 2000;

/** The kind of cell a field is written as: dates and times as dates, money and numbers as numbers, the rest (ids, phones, codes, labels) as text. */
export function cellKindOf(field: FieldDef): CellKind {
  switch (field.kind) {
    case 'money':
      return 'money';
    case 'number':
      return field.multiple ? 'text' : field.unit === 'seconds' ? 'duration' : 'number';
    case 'date':
      return 'date';
    case 'datetime':
      return 'datetime';
    default:
      return 'text';
  }
}

/**
 * The value of a field for people, in the caller's locale (money in yuan; its cell kind says how it is
 * written), as a reader of rows: what does not depend on the row (the enum's labels, the yes/no
 * labels, the list separator) is looked up once per export, not once per cell.
 */
export function cellReader(field: FieldDef, name: string, locale: Locale): (row: Row) => CellInput {
  const read = valueReader(field, name, locale);
  return (row) => {
    const value = row[name];
    return value === null || value === undefined ? null : read(value, row);
  };
}

/** How a present value of the field becomes its cell (cellReader). */
function valueReader(field: FieldDef, name: string, locale: Locale): (value: unknown, row: Row) => CellInput {
  switch (field.kind) {
    case 'money':
      return (value) => Number(value) / 100;
    case 'enum': {
      const labels = new Map<string, string>();
      // The first option of a value wins.
      for (const o of field.options) if (!labels.has(String(o.value))) labels.set(String(o.value), o[locale]);
      return (value) => labels.get(String(value)) ?? String(value);
    }
    case 'bool': {
      const yes = (field.trueLabel ?? { zh: '是', en: 'Yes' })[locale];
      const no = (field.falseLabel ?? { zh: '否', en: 'No' })[locale];
      return (value) => (value ? yes : no);
    }
    case 'reference': {
      const separator = formatServerMessage('export.listSeparator', undefined, locale);
      const labelKey = `${name}Label`;
      return (value, row) => {
        const label = row[labelKey];
        if (Array.isArray(label)) return label.join(separator);
        return (label as string | undefined) ?? String(value);
      };
    }
    case 'datetime':
      return (value) => (value instanceof Date ? value : String(value));
    case 'number':
      return (value) => (field.multiple && Array.isArray(value) ? value.join(', ') : Number(value));
    case 'json':
      return (value) => JSON.stringify(value);
    default:
      return (value) => String(value);
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
  const selected = selection(ctx, table);
  const mapRows = arrayRowsOf(selected);

  /** The batch after `lastRow` (`written` rows so far): the rows read, and the same rows completed for the sheet. */
  const readBatch = async (written: number, lastRow: Row | undefined): Promise<{ found: Row[]; rows: Row[]; limit: number }> => {
    const limit = Math.min(BATCH, maxCount - written);
    // Keyset paging when the order is by id or the caller's key (constant cost per batch); offset batches otherwise.
    const lastId = lastRow && Number(lastRow.id);
    const idKeyset = byId && lastId !== undefined ? (ascending ? gt(idColumn, lastId) : lt(idColumn, lastId)) : undefined;
    const keyset = paging ? lastRow && paging.after(lastRow) : idKeyset;
    let query = ctx.db
      .select(selected)
      .from(table)
      .where(allConditions(where, keyset))
      .orderBy(...(paging?.order ?? orderOf(ctx, table, sort.field, sort.order)))
      .limit(limit)
      .$dynamic();
    if (!byId && !paging) query = query.offset(written);
    // Unnamed (''): the rows come as arrays and are mapped by arrayRowsOf, not by drizzle.
    const found = (await ctx.db._.session.prepareQuery(query.toSQL(), undefined, '', true, mapRows).execute()) as Row[];
    const linked = await readLinks(ctx, found);
    return { found, rows: afterRead && found.length > 0 ? await afterRead(ctx, linked) : linked, limit };
  };
  let batch = await readBatch(0, undefined);

  const fields = visibleFields(ctx).filter(([, f]) => isExported(f));
  const readers = fields.map(([name, f]) => cellReader(f, name, ctx.locale));
  return streamWorkbook([
    {
      name: ctx.def.label[ctx.locale],
      columns: fields.map(([name, f]) => ({ key: name, header: f.label[ctx.locale], kind: cellKindOf(f), width: Math.max(12, Math.min(40, (f.width ?? 120) / 7)) })),
      async write(sheet) {
        let written = 0;
        for (;;) {
          const last = written + batch.rows.length >= maxCount || batch.found.length < batch.limit;
          // The database reads the next batch while this one is written (its rows and its offset are known).
          const next = last ? undefined : readBatch(written + batch.rows.length, batch.found[batch.found.length - 1]);
          // Awaited below; until then a failure must not count as unhandled (a failed write ends the export first).
          next?.catch(() => undefined);
          for (const row of batch.rows) {
            const values: CellInput[] = new Array(readers.length);
            for (let i = 0; i < readers.length; i += 1) values[i] = readers[i]!(row);
            sheet.addRow(values);
          }
          written += batch.rows.length;
          if (!next) break;
          // At most two batches in memory: the next rows are taken once this batch is compressed and sent.
          await sheet.drained();
          batch = await next;
        }
      },
    },
  ]);
}
