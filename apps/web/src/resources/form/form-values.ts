/** From a row to form values and back: the Add body and the changed fields of an Update. */
import { isInForm, type FieldDef } from '@campus/contract';
import { hashPassword } from '../../lib/md5';
import {
  centsToYuan,
  dateToPickerValue,
  instantToPickerValue,
  isDayjs,
  pickerValueToDate,
  pickerValueToInstant,
  yuanToCents,
} from '../shared/field-values';
import { linesToForm, linesToWire } from './line-values';

export type FormValues = Record<string, unknown>;
export type WireBody = Record<string, unknown>;
export type FieldEntry = [name: string, field: FieldDef];

/** Fields a client may write (the Add/Update schemas accept exactly these), minus the ones `hidden`. */
export function writableFieldsOf(fields: Record<string, FieldDef>, hidden: ReadonlySet<string> = new Set()): FieldEntry[] {
  return Object.entries(fields).filter(([name, field]) => isInForm(field) && !field.readOnly && !hidden.has(name));
}

/** A wire value as the form control expects it (yuan, dayjs); passwords always start empty. */
export function toFormValue(field: FieldDef, wire: unknown): unknown {
  if (wire === null || wire === undefined || field.kind === 'password') return undefined;
  if (field.kind === 'lines') return linesToForm(field, wire);
  if (field.kind === 'money' && typeof wire === 'number') return centsToYuan(wire);
  if (field.kind === 'datetime' && typeof wire === 'string') return instantToPickerValue(wire);
  if (field.kind === 'date' && typeof wire === 'string') return dateToPickerValue(wire);
  return wire;
}

/** A form value on the wire; undefined means "no value". Passwords travel as MD5 (SEED-SPEC section 5). */
export function toWireValue(field: FieldDef, value: unknown): unknown {
  if (value === undefined || value === null) return undefined;
  if (field.kind === 'lines') return linesToWire(field, value);
  if (typeof value === 'string') {
    const text = field.kind === 'textarea' || field.kind === 'password' ? value : value.trim();
    if (text === '') return undefined;
    // A sealed credential (an NVR's login) is used by the server as typed, so it travels as typed.
    return field.kind === 'password' && !field.sealed ? hashPassword(text) : text;
  }
  if (field.kind === 'money' && typeof value === 'number') return yuanToCents(value);
  if (isDayjs(value)) return field.kind === 'date' ? pickerValueToDate(value) : pickerValueToInstant(value);
  return value;
}

export function rowToFormValues(entries: readonly FieldEntry[], row: Record<string, unknown>): FormValues {
  return Object.fromEntries(entries.map(([name, field]) => [name, toFormValue(field, row[name])]));
}

/** Declared starting values of an Add form. */
export function defaultFormValues(entries: readonly FieldEntry[]): FormValues {
  const values: FormValues = {};
  for (const [name, field] of entries) {
    if (field.defaultValue !== undefined) values[name] = toFormValue(field, field.defaultValue);
  }
  return values;
}

/** Body of an Add (or an action): values present, blanks left out. */
export function buildAddBody(entries: readonly FieldEntry[], values: FormValues): WireBody {
  const body: WireBody = {};
  for (const [name, field] of entries) {
    const wire = toWireValue(field, values[name]);
    if (wire !== undefined) body[name] = wire;
  }
  return body;
}

function sameWireValue(field: FieldDef, stored: unknown, next: unknown): boolean {
  if (field.kind === 'lines') return JSON.stringify(linesToWire(field, linesToForm(field, stored))) === JSON.stringify(next ?? []);
  const blank = (v: unknown) => v === undefined || v === null || v === '';
  if (blank(stored) || blank(next)) return blank(stored) && blank(next);
  // Instants compare by the second: the picker has no milliseconds.
  if (field.kind === 'datetime') return Math.floor(Date.parse(String(stored)) / 1000) === Math.floor(Date.parse(String(next)) / 1000);
  return String(stored) === String(next);
}

/**
 * The fields an Update sends: only those whose value differs from the stored row. A cleared optional
 * field is sent as null (clears it); an empty password means "unchanged" and is never sent.
 */
export function changedFields(entries: readonly FieldEntry[], row: Record<string, unknown>, values: FormValues): WireBody {
  const changes: WireBody = {};
  for (const [name, field] of entries) {
    const next = toWireValue(field, values[name]);
    if (field.kind === 'password') {
      if (next !== undefined) changes[name] = next;
      continue;
    }
    if (sameWireValue(field, row[name], next)) continue;
    if (next === undefined && field.required) continue; // the form's required rule stops this earlier
    changes[name] = next === undefined ? null : next;
  }
  return changes;
}
