/**
 * Checks a batch of imported rows as Add checks one row — the declaration's zod schema, references in
 * the caller's scope (and within their school), the family's address and beforeWrite rules, unique
 * fields in the database and inside the file — but with one query per reference and per unique field
 * for the whole batch, so 50,000 rows cost a few hundred queries instead of hundreds of thousands.
 */
import { addSchemaOf, type FieldDef, type ImportCellError, type ImportColumn, type ServerMessage } from '@campus/contract';
import { and, eq, inArray, type SQL } from 'drizzle-orm';
import type { Database, Executor } from '../../../db/client.js';
import { AppError, msg } from '../../../platform/errors.js';
import { messageOfIssue, type IssueFacts } from '../../../platform/zod-issues.js';
import type { EngineContext, Row } from '../context.js';
import { hooksOf } from '../hooks.js';
import { columnOf } from '../query.js';
import { referenceScope } from '../reference-scope.js';
import { checkAddress } from '../regions.js';
import { referenceTargetOf, tableOf } from '../registry.js';
import { NAME_LIST_SEPARATOR, columnLetter, messageIn, readCell } from './cells.js';
import type { SheetRow } from './sheet.js';

type ReferenceField = Extract<FieldDef, { kind: 'reference' }>;

/** A column of the file: where it is, what it holds, and its header as written. */
export interface FileColumn {
  index: number;
  column: ImportColumn;
  header: string;
}

/** A row on its way: the values read so far, the reference texts to look up, and its problems. */
export interface PendingRow {
  number: number;
  values: Row;
  names: Map<string, string>;
  errors: ImportCellError[];
}

/** A reference narrowed by another value of the row: a class by the row's school, a student by the school it follows. */
interface Narrowing {
  rowField: string;
  targetField: string;
}

/** A name looked up once: the key it names, or why it names none. */
type Resolution = { key: unknown; narrowValue: unknown } | { problem: ServerMessage };

const SEPARATOR = '\u0000';

export class RowChecker {
  private readonly schema;
  private readonly byName: Map<string, FileColumn>;
  private readonly references: [FileColumn, ReferenceField, Narrowing | undefined][];
  private readonly resolved = new Map<string, Map<string, Resolution>>();
  private readonly seenUnique = new Map<string, Map<string, number>>();

  constructor(
    private readonly ctx: EngineContext,
    private readonly db: Executor,
    private readonly columns: readonly FileColumn[],
  ) {
    this.schema = addSchemaOf(ctx.def);
    this.byName = new Map(columns.map((column) => [column.column.name, column]));
    const narrowingOf = (name: string, field: ReferenceField): Narrowing | undefined => {
      if (field.within && this.byName.has(field.within)) return { rowField: field.within, targetField: field.within };
      const follower = columns.find((c) => c.column.field.kind === 'reference' && c.column.field.follows?.reference === name);
      const follows = follower?.column.field.kind === 'reference' ? follower.column.field.follows : undefined;
      return follower && follows ? { rowField: follower.column.name, targetField: follows.field } : undefined;
    };
    const references = columns
      .filter((c) => c.column.field.kind === 'reference')
      .map((c) => [c, c.column.field as ReferenceField, narrowingOf(c.column.name, c.column.field as ReferenceField)] as [FileColumn, ReferenceField, Narrowing | undefined]);
    // Names that narrow others are looked up first: a school before the classes named within it.
    this.references = [...references.filter(([, , n]) => !n), ...references.filter(([, , n]) => n)];
  }

  /** Reads a sheet row's cells into wire values and reference texts; unreadable cells become errors. */
  read(row: SheetRow): PendingRow {
    const pending: PendingRow = { number: row.number, values: {}, names: new Map(), errors: [] };
    for (const column of this.columns) {
      const cell = row.cells.get(column.index);
      const { name, field } = column.column;
      if (cell === undefined) {
        if (field.defaultValue !== undefined && !column.column.narrowsOnly) pending.values[name] = field.defaultValue;
        continue;
      }
      if (field.kind === 'reference') {
        pending.names.set(name, String(cell instanceof Date ? cell.toISOString().slice(0, 10) : cell).trim());
        continue;
      }
      const reading = readCell(field, cell, this.ctx.locale);
      if ('problem' in reading) this.problem(pending, name, reading.problem);
      else pending.values[name] = reading.value;
    }
    return pending;
  }

  /** Completes a batch: references looked up, values validated and adjusted by the family's rules, uniques checked. */
  async check(batch: PendingRow[]): Promise<void> {
    for (const [column, field, narrowing] of this.references) await this.resolveReferences(batch, column, field, narrowing);
    for (const row of batch) await this.checkRow(row);
    await this.checkUnique(batch.filter((row) => row.errors.length === 0));
  }

  /** Looks up one reference column's names for the whole batch (one query) and puts the keys on the rows. */
  private async resolveReferences(batch: PendingRow[], column: FileColumn, field: ReferenceField, narrowing: Narrowing | undefined): Promise<void> {
    const name = column.column.name;
    const cache = this.resolved.get(name) ?? new Map<string, Resolution>();
    this.resolved.set(name, cache);
    const cacheKey = (row: PendingRow, text: string) => `${narrowing ? String(row.values[narrowing.rowField] ?? '') : ''}${SEPARATOR}${text}`;
    const textsOf = (row: PendingRow) => {
      const text = row.names.get(name);
      if (text === undefined || text === '') return [];
      return field.multiple ? [...new Set(text.split(NAME_LIST_SEPARATOR).map((t) => t.trim()).filter(Boolean))] : [text];
    };
    // A row whose narrowing value could not be read has its error already; its names are not looked up.
    const usable = batch.filter((row) => !narrowing || row.names.get(narrowing.rowField) === undefined || row.values[narrowing.rowField] !== undefined);
    const missing = new Map<string, { narrow: unknown; text: string }>();
    for (const row of usable) for (const text of textsOf(row)) if (!cache.has(cacheKey(row, text))) missing.set(cacheKey(row, text), { narrow: narrowing ? row.values[narrowing.rowField] : undefined, text });
    if (missing.size > 0) await this.lookUp(field, narrowing, missing, cache);

    for (const row of usable) {
      const texts = textsOf(row);
      if (texts.length === 0) continue;
      const keys: unknown[] = [];
      for (const text of texts) {
        const resolution = cache.get(cacheKey(row, text))!;
        if ('problem' in resolution) {
          this.problem(row, name, resolution.problem);
          break;
        }
        keys.push(resolution.key);
        // A followed field takes the school of the row its reference names (applyFollows on Add).
        if (narrowing && !field.within && row.values[narrowing.rowField] === undefined) row.values[narrowing.rowField] = resolution.narrowValue;
      }
      if (keys.length === texts.length) row.values[name] = field.multiple ? keys : keys[0];
    }
  }

  /** One query for the names of a batch: rows of the referenced family the caller may name, by code or display name. */
  private async lookUp(field: ReferenceField, narrowing: Narrowing | undefined, wanted: Map<string, { narrow: unknown; text: string }>, cache: Map<string, Resolution>): Promise<void> {
    const target = referenceTargetOf(field);
    const matchColumn = columnOf(target.table, field.key ?? target.display);
    const keyColumn = columnOf(target.table, target.key);
    const narrowColumn = narrowing ? columnOf(target.table, narrowing.targetField) : undefined;
    const texts = [...new Set([...wanted.values()].map((w) => w.text))];
    const conditions: (SQL | undefined)[] = [inArray(matchColumn, texts), referenceScope(this.ctx, field.family, target.table)];
    for (const [filterField, filterValue] of Object.entries(field.optionsFilter ?? {})) conditions.push(eq(columnOf(target.table, filterField), filterValue));
    const narrows = [...wanted.values()].map((w) => w.narrow);
    // Every name narrowed (the usual case): the query reads only those schools' rows.
    if (narrowColumn && narrows.every((v) => v !== undefined && v !== null)) conditions.push(inArray(narrowColumn, [...new Set(narrows)]));
    const found = await this.db
      .select({ key: keyColumn, match: matchColumn, ...(narrowColumn ? { narrow: narrowColumn } : {}) })
      .from(target.table)
      .where(and(...conditions));
    for (const [key, { narrow, text }] of wanted) {
      const matches = found.filter((row) => String(row.match) === text && (narrow === undefined || narrow === null || !narrowColumn || String((row as { narrow?: unknown }).narrow) === String(narrow)));
      if (matches.length === 1) cache.set(key, { key: matches[0]!.key, narrowValue: (matches[0] as { narrow?: unknown }).narrow });
      else if (matches.length === 0) cache.set(key, { problem: msg('validation.referenceNotFound', { field: field.label }) });
      else cache.set(key, { problem: msg('import.ambiguous', { name: text, field: field.label }) });
    }
  }

  /** The row's values through the Add schema, the view's fixed values, the address rule and the family's beforeWrite. */
  private async checkRow(row: PendingRow): Promise<void> {
    const def = this.ctx.def;
    const written = Object.fromEntries(Object.entries(row.values).filter(([name]) => !this.byName.get(name)?.column.narrowsOnly));
    const parsed = this.schema.safeParse(written);
    if (!parsed.success) {
      // Every wrong cell of the row at once; a cell already refused while read is not refused twice.
      const refused = new Set(row.errors.map((error) => error.field));
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? '');
        if (!refused.has(field)) this.problem(row, field, messageOfIssue(issue as IssueFacts));
      }
    }
    if (!parsed.success || row.errors.length > 0) return;
    const followed = Object.fromEntries(Object.entries(row.values).filter(([name]) => this.byName.get(name)?.column.narrowsOnly));
    const initial = def.workflow ? { [def.workflow.field]: def.workflow.initial } : {};
    try {
      const located = checkAddress(def, { ...(parsed.data as Row), ...(this.ctx.view.fixed ?? {}), ...initial });
      const beforeWrite = hooksOf(def).beforeWrite;
      const adjusted = beforeWrite ? await beforeWrite({ ...this.ctx, db: this.db as Database }, { op: 'add', values: located }) : located;
      row.values = { ...adjusted, ...followed };
    } catch (error) {
      if (!(error instanceof AppError) || error.httpStatus >= 500) throw error;
      if (error.fieldProblems.length === 0) this.problem(row, '', error.reason);
      for (const { path, ...message } of error.fieldProblems) this.problem(row, path.split('.')[0]!, message);
      return;
    }
    const key = def.scope.via === 'school' ? def.scope.field : undefined;
    // As Add: a caller limited to some schools writes rows of one of them, never rows of no school.
    if (key && this.ctx.scope.kind !== 'all' && (row.values[key] === null || row.values[key] === undefined)) this.problem(row, key, msg('validation.schoolInScope'));
  }

  /** Unique fields: a value already stored, or repeating an earlier row of the file, is refused on its cell. */
  private async checkUnique(rows: PendingRow[]): Promise<void> {
    const table = tableOf(this.ctx.def);
    for (const [name, field] of Object.entries(this.ctx.def.fields)) {
      if (!field.unique) continue;
      const seen = this.seenUnique.get(name) ?? new Map<string, number>();
      this.seenUnique.set(name, seen);
      const values = [...new Set(rows.map((row) => row.values[name]).filter((v) => v !== undefined && v !== null).map(String))];
      if (values.length === 0) continue;
      const column = columnOf(table, name);
      const stored = new Set((await this.db.select({ value: column }).from(table).where(inArray(column, values))).map((r) => String(r.value)));
      for (const row of rows) {
        const value = row.values[name];
        if (value === undefined || value === null) continue;
        const text = String(value);
        const earlier = seen.get(text);
        // The file's own repeats first: during Import the earlier rows are stored already.
        if (earlier !== undefined) this.problem(row, name, msg('import.duplicateInFile', { row: earlier }));
        else if (stored.has(text)) this.problem(row, name, msg('validation.alreadyExists'));
        else seen.set(text, row.number);
      }
    }
  }

  /** Records a problem on a row's cell (or on the row, for a field the file has no column of). */
  private problem(row: PendingRow, field: string, message: ServerMessage): void {
    const column = this.byName.get(field);
    row.errors.push({
      row: row.number,
      column: column ? columnLetter(column.index) : '',
      field: column ? field : '',
      header: column?.header ?? (this.ctx.def.fields[field]?.label[this.ctx.locale] ?? ''),
      message: messageIn(message, this.ctx.locale),
    });
  }
}
