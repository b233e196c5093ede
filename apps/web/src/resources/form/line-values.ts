/**
 * The lines of a `lines` field (an order's items) between the wire and the form: a form line keeps
 * what Get answered for display (labels, unit prices in cents) beside the values the user edits;
 * the wire gets only the values a client may write.
 */
import { isInForm, type FieldDef } from '@campus/contract';
import { centsToYuan, dateToPickerValue, isDayjs, pickerValueToDate, yuanToCents } from '../shared/field-values';

export type LinesField = Extract<FieldDef, { kind: 'lines' }>;
export type FormLine = Record<string, unknown>;

/** The fields of a line a user edits (the server computes the rest). */
export function editableLineFields(field: LinesField): [string, FieldDef][] {
  return Object.entries(field.fields).filter(([, f]) => isInForm(f) && !f.readOnly);
}

/** Stored lines as form lines: money the user edits in yuan, dates as the picker's; everything else (labels, computed cents) as read. */
export function linesToForm(field: LinesField, wire: unknown): FormLine[] {
  if (!Array.isArray(wire)) return [];
  return wire.map((line: FormLine) => {
    const formLine: FormLine = { ...line };
    for (const [name, f] of editableLineFields(field)) {
      if (f.kind === 'money' && typeof line[name] === 'number') formLine[name] = centsToYuan(line[name]);
      // A date picker edits a dayjs (a split rule's effective date).
      if (f.kind === 'date' && typeof line[name] === 'string') formLine[name] = dateToPickerValue(line[name]);
    }
    return formLine;
  });
}

/** Form lines as the Add/Update body sends them: only the editable values, blanks left out. */
export function linesToWire(field: LinesField, lines: unknown): FormLine[] {
  if (!Array.isArray(lines)) return [];
  return lines.map((line: FormLine | undefined) => {
    const wire: FormLine = {};
    for (const [name, f] of editableLineFields(field)) {
      const value = line?.[name];
      if (value === undefined || value === null || value === '') continue;
      wire[name] = f.kind === 'money' && typeof value === 'number' ? yuanToCents(value) : f.kind === 'date' && isDayjs(value) ? pickerValueToDate(value) : value;
    }
    return wire;
  });
}

/**
 * The unit price (cents) shown for a line: the one stored with a line of the same reference value,
 * while the server's price of a newly picked item is not known yet (the server sets it on save).
 */
export function knownUnitPrice(field: LinesField, line: FormLine, known: readonly FormLine[]): number | undefined {
  const amount = field.amount;
  if (!amount) return undefined;
  const reference = amount.priceFrom?.reference;
  if (!reference) {
    const typed = line[amount.unitPrice];
    return typeof typed === 'number' ? yuanToCents(typed) : undefined;
  }
  const match = known.find((stored) => stored[reference] !== undefined && String(stored[reference]) === String(line[reference]));
  const price = match?.[amount.unitPrice];
  return typeof price === 'number' ? price : undefined;
}

/** A line's amount in cents (quantity × unit price), when its unit price is known. */
export function lineAmount(field: LinesField, line: FormLine, known: readonly FormLine[]): number | undefined {
  const amount = field.amount;
  const price = knownUnitPrice(field, line, known);
  if (!amount || price === undefined) return undefined;
  const quantity = Number(line[amount.quantity]);
  return Number.isFinite(quantity) ? quantity * price : undefined;
}
