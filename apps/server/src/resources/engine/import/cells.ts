/**
 * Spreadsheet cells and the declaration's fields: a template's header, a cell as people write it, and
 * a cell's text turned into the value Add takes on the wire (enum labels to values, yuan to cents, yes
 * / no to booleans). A cell that cannot be read answers a message of the catalogue, shown on its cell.
 */
import { formatBusinessDateTime, formatServerMessage, type FieldDef, type ImportColumn, type ServerMessage } from '@campus/contract';
import { msg } from '../../../platform/errors.js';
import type { Locale } from '../context.js';

/** Marks a required column in the template's header; stripped when the header is read back. */
const REQUIRED_MARK = ' *';

/** The header of a column in the caller's language. */
export function headerOf(column: ImportColumn, locale: Locale): string {
  return column.field.label[locale] + (column.field.required ? REQUIRED_MARK : '');
}

/** Finds the column a header names, in either language, with or without the required mark. */
export function columnByHeader(columns: readonly ImportColumn[], header: string): ImportColumn | undefined {
  const text = header.trim().replace(/\s*\*$/, '');
  return columns.find((column) => column.field.label.zh === text || column.field.label.en === text);
}

/** The spreadsheet letter of a 1-based column number (1 → A, 27 → AA). */
export function columnLetter(index: number): string {
  let letters = '';
  for (let n = index; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

/** A cell value as exceljs reads it: text, a number, a date, a boolean, rich text, a formula or a link. */
export type CellValue = unknown;

/** The plain value of an exceljs cell: rich text joined, a formula's result, a link's text. */
export function plainCell(value: CellValue): string | number | boolean | Date | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value instanceof Date) return value;
  if (typeof value === 'object') {
    const object = value as { richText?: { text: string }[]; result?: unknown; text?: unknown; error?: unknown };
    if (Array.isArray(object.richText)) return object.richText.map((part) => part.text).join('');
    if ('result' in object) return plainCell(object.result);
    if (typeof object.text === 'string') return object.text;
    if (object.error !== undefined) return String(object.error);
  }
  return String(value);
}

/** Days from Excel's day 0 (1899-12-30) to 1970-01-01: dates typed without a date format arrive as such numbers. */
const EXCEL_EPOCH_DAYS = 25569;

function isoDate(date: Date): string {
  // exceljs reads a date cell as midnight UTC of that day.
  return date.toISOString().slice(0, 10);
}

function dateText(cell: string | number | boolean | Date): string | undefined {
  if (cell instanceof Date) return Number.isNaN(cell.getTime()) ? undefined : isoDate(cell);
  if (typeof cell === 'number' && cell > 0 && cell < 2_958_466) return isoDate(new Date(Math.round((cell - EXCEL_EPOCH_DAYS) * 86_400_000)));
  const match = /^(\d{4})[-/.年](\d{1,2})[-/.月](\d{1,2})日?$/.exec(String(cell).trim());
  if (!match) return undefined;
  return `${match[1]}-${match[2]!.padStart(2, '0')}-${match[3]!.padStart(2, '0')}`;
}

/**
 * The instant of a date cell's time: a workbook has no zone, and its times are the console's business
 * time (China), as the exports write them. exceljs reads the wall time into the Date's UTC fields.
 */
function instantOfWallTime(cell: Date): Date {
  const shown = Date.parse(`${formatBusinessDateTime(cell, { seconds: true }).replace(' ', 'T')}Z`);
  return new Date(cell.getTime() - (shown - cell.getTime()));
}

/** Text of a cell as people typed it: numbers without exponent, dates as YYYY-MM-DD. */
export function cellText(cell: string | number | boolean | Date): string {
  if (cell instanceof Date) return isoDate(cell);
  if (typeof cell === 'number') return Number.isInteger(cell) ? BigInt(cell).toString() : String(cell);
  return String(cell).trim();
}

/** Separators people put between several names in one cell. */
export const NAME_LIST_SEPARATOR = /[,，、;；\n]+/;

export type CellReading = { value: unknown } | { problem: ServerMessage };

const YES = ['是', 'yes', 'y', 'true', '1', '启用', 'enabled'];
const NO = ['否', 'no', 'n', 'false', '0', '停用', 'disabled'];

/**
 * The wire value of one non-blank cell for a field, or the problem to show on the cell. References
 * stay text (a name, a code, or a list of names): they are looked up by the batch, all at once.
 */
export function readCell(field: FieldDef, cell: string | number | boolean | Date, locale: Locale): CellReading {
  switch (field.kind) {
    case 'number':
    case 'money': {
      const number = typeof cell === 'number' ? cell : Number(cellText(cell).replace(/[,，\s]/g, ''));
      if (typeof cell === 'boolean' || cell instanceof Date || !Number.isFinite(number)) return { problem: msg('validation.number') };
      // Money is typed in yuan and travels in cents.
      return { value: field.kind === 'money' ? Math.round(number * 100) : number };
    }
    case 'bool': {
      if (typeof cell === 'boolean') return { value: cell };
      const text = cellText(cell).toLowerCase();
      const yes = [...YES, field.trueLabel?.zh, field.trueLabel?.en?.toLowerCase()];
      const no = [...NO, field.falseLabel?.zh, field.falseLabel?.en?.toLowerCase()];
      if (yes.includes(text)) return { value: true };
      if (no.includes(text)) return { value: false };
      const yesLabel = field.trueLabel?.[locale] ?? formatServerMessage('import.yes', undefined, locale);
      const noLabel = field.falseLabel?.[locale] ?? formatServerMessage('import.no', undefined, locale);
      return { problem: msg('import.notYesNo', { yes: yesLabel, no: noLabel }) };
    }
    case 'enum': {
      const text = cellText(cell);
      const option = field.options.find((o) => o.zh === text || o.en.toLowerCase() === text.toLowerCase() || String(o.value) === text);
      if (option) return { value: option.value };
      return { problem: msg('import.notOneOf', { values: field.options.map((o) => o[locale]) }) };
    }
    case 'date': {
      const date = dateText(cell);
      return date ? { value: date } : { problem: msg('import.notDate') };
    }
    case 'datetime':
      return { value: cell instanceof Date ? instantOfWallTime(cell).toISOString() : cellText(cell) };
    default:
      return { value: cellText(cell) };
  }
}

/** A template cell for a wire value, as people read it: labels for enums and yes / no, yuan for money. */
export function templateCell(field: FieldDef, value: string | number | boolean, locale: Locale): string | number {
  switch (field.kind) {
    case 'money':
      return Number(value) / 100;
    case 'enum':
      return field.options.find((o) => String(o.value) === String(value))?.[locale] ?? String(value);
    case 'bool': {
      const label = value ? (field.trueLabel ?? { zh: '是', en: 'Yes' }) : (field.falseLabel ?? { zh: '否', en: 'No' });
      return label[locale];
    }
    default:
      return typeof value === 'number' ? value : String(value);
  }
}

/** How a column is filled in, for the template's notes. */
export function columnHint(field: FieldDef, locale: Locale): string {
  const zh = locale === 'zh';
  switch (field.kind) {
    case 'enum':
      return (zh ? '可选：' : 'One of: ') + field.options.map((o) => o[locale]).join(zh ? '、' : ', ');
    case 'bool':
      return `${(field.trueLabel ?? { zh: '是', en: 'Yes' })[locale]} / ${(field.falseLabel ?? { zh: '否', en: 'No' })[locale]}`;
    case 'date':
      return zh ? '日期，如 2024-09-01' : 'A date such as 2024-09-01';
    case 'money':
      return zh ? '金额（元）' : 'Amount in yuan';
    case 'reference': {
      const by = field.key ? (zh ? '编码' : 'code') : zh ? '名称' : 'name';
      return field.multiple ? (zh ? `填写${by}，多个用逗号分隔` : `Write the ${by}s, separated by commas`) : zh ? `填写${by}` : `Write the ${by}`;
    }
    case 'phone':
      return zh ? '手机号或固定电话' : 'A mobile or landline number';
    case 'text':
    case 'textarea':
      return field.max ? (zh ? `最多 ${field.max} 个字符` : `At most ${field.max} characters`) : '';
    default:
      return '';
  }
}

/** A message in the caller's language, for the preview's cells. */
export function messageIn(message: ServerMessage, locale: Locale): string {
  return formatServerMessage(message.key, message.params, locale);
}
