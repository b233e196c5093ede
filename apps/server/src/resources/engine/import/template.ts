/**
 * The import template of a family: a first sheet with the column headers in the caller's language
 * (required ones marked *), and a second sheet with the declared example rows and how each column is
 * filled in. Example references name real rows of the caller's scope (its first school, a class of
 * that school), so the examples would import as they are.
 */
import { importColumnsOf, type FieldDef, type ImportColumn } from '@campus/contract';
import ExcelJS from 'exceljs';
import { and, asc, eq, type SQL } from 'drizzle-orm';
import { PassThrough } from 'node:stream';
import type { EngineContext } from '../context.js';
import { columnOf } from '../query.js';
import { referenceScope } from '../reference-scope.js';
import { referenceTargetOf } from '../registry.js';
import { columnHint, headerOf, templateCell } from './cells.js';

type ReferenceField = Extract<FieldDef, { kind: 'reference' }>;

/** A row of the caller's scope for each reference column: its text in the file and its key. */
async function exampleReferences(ctx: EngineContext, columns: readonly ImportColumn[]): Promise<Map<string, string>> {
  const keys = new Map<string, unknown>();
  const texts = new Map<string, string>();
  const references = columns.filter((c) => c.field.kind === 'reference');
  // Unnarrowed references first (the school), then those narrowed by them (its classes, its students).
  const narrowingOf = (column: ImportColumn): { rowField: string; targetField: string } | undefined => {
    const field = column.field as ReferenceField;
    if (field.within) return { rowField: field.within, targetField: field.within };
    const follower = columns.find((c) => c.field.kind === 'reference' && c.field.follows?.reference === column.name);
    return follower && follower.field.kind === 'reference' && follower.field.follows ? { rowField: follower.name, targetField: follower.field.follows.field } : undefined;
  };
  const ordered = [...references.filter((c) => !narrowingOf(c)), ...references.filter((c) => narrowingOf(c))];
  for (const column of ordered) {
    const field = column.field as ReferenceField;
    const target = referenceTargetOf(field);
    const conditions: (SQL | undefined)[] = [referenceScope(ctx, field.family, target.table)];
    for (const [filterField, filterValue] of Object.entries(field.optionsFilter ?? {})) conditions.push(eq(columnOf(target.table, filterField), filterValue));
    const narrowing = narrowingOf(column);
    if (narrowing && keys.has(narrowing.rowField)) conditions.push(eq(columnOf(target.table, narrowing.targetField), keys.get(narrowing.rowField)));
    const [row] = await ctx.db
      .select({ key: columnOf(target.table, target.key), text: columnOf(target.table, field.key ?? target.display) })
      .from(target.table)
      .where(and(...conditions))
      .orderBy(asc(columnOf(target.table, target.key)))
      .limit(1);
    if (!row) continue;
    keys.set(column.name, row.key);
    texts.set(column.name, String(row.text));
  }
  return texts;
}

/** Streams the template workbook; the caller sends the stream as the reply. */
export async function importTemplate(ctx: EngineContext): Promise<PassThrough> {
  const { def, locale } = ctx;
  const columns = importColumnsOf(def);
  const references = await exampleReferences(ctx, columns);
  const stream = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useSharedStrings: false, useStyles: true });
  const zh = locale === 'zh';
  const sheetColumns = columns.map((column) => ({ header: headerOf(column, locale), key: column.name, width: Math.max(14, Math.min(36, (column.field.width ?? 120) / 7)) }));

  const data = workbook.addWorksheet(def.label[locale]);
  data.columns = sheetColumns;
  data.getRow(1).font = { bold: true };

  const examples = workbook.addWorksheet(zh ? '示例与说明' : 'Examples and notes');
  examples.columns = sheetColumns;
  examples.getRow(1).font = { bold: true };
  for (const example of def.import?.examples ?? []) {
    const cells: Record<string, string | number> = {};
    for (const column of columns) {
      const reference = references.get(column.name);
      const value = example[column.name];
      if (column.field.kind === 'reference') {
        if (reference !== undefined) cells[column.name] = reference;
      } else if (value !== undefined) cells[column.name] = templateCell(column.field, value, locale);
    }
    examples.addRow(cells).commit();
  }
  examples.addRow([]).commit();
  const notesHeader = examples.addRow(zh ? ['列', '必填', '填写说明'] : ['Column', 'Required', 'How to fill it in']);
  notesHeader.font = { bold: true };
  notesHeader.commit();
  for (const column of columns) {
    const hint = column.narrowsOnly
      ? zh
        ? `可选：用于区分不同学校的同名${(def.fields[(column.field as ReferenceField).follows!.reference]!).label.zh}`
        : `Optional: tells apart same-named rows of ${def.fields[(column.field as ReferenceField).follows!.reference]!.label.en} in different schools`
      : columnHint(column.field, locale);
    examples.addRow([column.field.label[locale], column.field.required ? (zh ? '是' : 'Yes') : zh ? '否' : 'No', hint]).commit();
  }
  const note = examples.addRow([zh ? '请在第一个工作表中填写数据，表头保持不变；本工作表不会被导入。' : 'Fill in the first sheet and keep its header row; this sheet is not imported.']);
  note.font = { italic: true };
  note.commit();

  data.commit();
  examples.commit();
  void workbook.commit().catch((error: unknown) => stream.destroy(error instanceof Error ? error : new Error(String(error))));
  return stream;
}
