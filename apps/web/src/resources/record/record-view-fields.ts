/** What the read-only record shows: every field people may read, and a title that is never a bare id. */
import type { ResourceDef } from '@campus/contract';
import type { Locale } from '../../lib/i18n';
import { labelText } from '../shared/labels';

/**
 * The fields of the record view: the listed ones and the rest a reader needs (a ticket's fault
 * description and photo, a school's street address), each as a listed field so the table's cell draws
 * it. Left out: what the family keeps out of lists and exports alike (a refund's query schedule).
 */
export function recordViewFieldsOf(def: Pick<ResourceDef, 'fields'>): ResourceDef['fields'] {
  return Object.fromEntries(
    Object.entries(def.fields)
      .filter(([, field]) => field.list !== false || field.exported !== false || field.kind === 'image')
      .map(([name, field]) => [name, { ...field, list: true }]),
  );
}

const textOf = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '');

/**
 * The record's name in its drawer's title: its title field, else what its first reference shows
 * (a refund not yet sent has no refund number: "Payment P2026…"), else its id.
 */
export function recordTitleOf(def: Pick<ResourceDef, 'fields' | 'titleField'>, row: Record<string, unknown>, locale: Locale): string {
  const title = textOf(row[def.titleField]) || textOf(row[`${def.titleField}Label`]);
  if (title) return title;
  for (const [name, field] of Object.entries(def.fields)) {
    const label = textOf(row[`${name}Label`]);
    if (field.kind === 'reference' && !field.multiple && label) return `${labelText(field.label, locale)} ${label}`;
  }
  return `#${String(row.id)}`;
}
