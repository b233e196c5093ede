/**
 * Excel import, shared by server and web: which fields a family's template has, the limits that keep
 * a hostile workbook cheap to refuse, and the answers of ImportPreview and Import.
 */
import { z } from 'zod';
import { isInForm, type FieldDef, type ResourceDef } from './define.js';

/** Field kinds a spreadsheet cell cannot carry: files, passwords (MD5 on the wire), order lines, JSON. */
const NOT_IMPORTED: ReadonlySet<FieldDef['kind']> = new Set(['image', 'file', 'password', 'lines', 'json']);

/** One column of a family's import template. */
export interface ImportColumn {
  name: string;
  field: FieldDef;
  /**
   * A school a reference follows (a pick-up person's school follows its student): never written, it
   * only narrows the reference's names to that school, as a class is named within its school.
   */
  narrowsOnly: boolean;
}

/**
 * The template's columns, in declaration order: the fields Add accepts that a cell can hold, and the
 * fields that follow a reference (to tell apart same-named rows of different schools).
 */
export function importColumnsOf(def: ResourceDef): ImportColumn[] {
  const columns: ImportColumn[] = [];
  for (const [name, field] of Object.entries(def.fields)) {
    if (NOT_IMPORTED.has(field.kind) || field.computed) continue;
    const follows = field.kind === 'reference' && field.follows !== undefined;
    const isAdded = isInForm(field) && !field.readOnly && name !== def.workflow?.field;
    if (isAdded || follows) columns.push({ name, field, narrowsOnly: follows });
  }
  return columns;
}

/** Bounds of one import: the upload, the unpacked workbook (ASVS 12.1.2: decompression bombs) and the rows. */
export const IMPORT_LIMITS = {
  /** The uploaded .xlsx; 50,000 rows of a wide family take about 5 MB. */
  maxFileBytes: 20 * 1_048_576,
  /** All parts of the workbook unpacked, counted as they inflate (not as their headers claim). */
  maxUnpackedBytes: 256 * 1_048_576,
  /** Unpacked over packed bytes, checked once more than `ratioFloorBytes` are unpacked; real sheets stay under 20. */
  maxRatio: 100,
  ratioFloorBytes: 8 * 1_048_576,
  /** Parts of the zip; a workbook of a few sheets has about 15. */
  maxEntries: 200,
  maxRows: 50_000,
  /** Cell errors answered by a preview (the counts stay exact). */
  maxErrors: 500,
} as const;

/** One refused cell (or a refused row, with no column): row and column as the spreadsheet shows them. */
export const importCellErrorSchema = z.object({
  row: z.number().int(),
  /** The column letter (A, B, …), empty when the whole row is refused. */
  column: z.string(),
  /** The field's name, empty when the whole row is refused. */
  field: z.string(),
  /** The column's header as the file names it. */
  header: z.string(),
  message: z.string(),
});
export type ImportCellError = z.infer<typeof importCellErrorSchema>;

/** The answer of ImportPreview (and the data of Import's 400 when rows are wrong). */
export const importPreviewSchema = z.object({
  total: z.number().int(),
  valid: z.number().int(),
  invalid: z.number().int(),
  errors: z.array(importCellErrorSchema),
  /** More cell errors were found than `errors` lists (IMPORT_LIMITS.maxErrors). */
  truncated: z.boolean(),
});
export type ImportPreview = z.infer<typeof importPreviewSchema>;

/** The answer of Import: the rows written in its one transaction, and the invalid rows left out. */
export const importAnswerSchema = z.object({
  imported: z.number().int(),
  skipped: z.number().int(),
});
export type ImportAnswer = z.infer<typeof importAnswerSchema>;

/** Query of Import: `skipInvalid` writes the valid rows and leaves the others; without it any error writes nothing. */
export const importQuerySchema = z.object({
  view: z.string().max(64).optional(),
  skipInvalid: z.enum(['true', 'false']).optional(),
});
