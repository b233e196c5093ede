/**
 * The field rules a declaration states beside each field (`fixed`, `requiredWhen`, a date's
 * `notBefore` and `maxDays`), checked by the engine on every write so no family restates them in a
 * hook; the web form reads the same declaration (form/field-rules.ts).
 */
import type { FieldDef, ResourceDef } from '@campus/contract';
import { badRequest, msg, type FieldProblem } from '../../platform/errors.js';
import type { Row } from './context.js';
import { valueAfter } from './lookup.js';

const DAY_MS = 86_400_000;

const isEmpty = (value: unknown) => value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

/** The label of a value of a field: an enum's option in both languages, else the value itself. */
function valueLabel(field: FieldDef | undefined, value: string | number | boolean) {
  const option = field?.kind === 'enum' ? field.options.find((o) => o.value === value) : undefined;
  return option ? { zh: option.zh, en: option.en } : String(value);
}

/** Refuses an Update that changes a `fixed` field (sending the stored value again is no change). */
export function refuseFixedChanges(def: ResourceDef, values: Row, existing: Row | undefined): void {
  if (!existing) return;
  const changed = Object.entries(def.fields).filter(([name, field]) => field.fixed && values[name] !== undefined && String(values[name] ?? '') !== String(existing[name] ?? ''));
  if (changed.length > 0) throw badRequest(changed.map(([name]) => ({ path: name, ...msg('validation.fixed') })));
}

/**
 * Checks `requiredWhen` and the date rules on the row as it will be (the values over the stored row).
 * A link field left out of an Update keeps its stored entries, which were checked when written.
 */
export function checkFieldRules(def: ResourceDef, values: Row, existing: Row | undefined): void {
  const problems: FieldProblem[] = [];
  for (const [name, field] of Object.entries(def.fields)) {
    const when = field.requiredWhen;
    if (when) {
      const condition = valueAfter(values, existing, when.field) as string | number | boolean | null | undefined;
      const isLinkKept = existing !== undefined && values[name] === undefined && field.kind === 'reference' && field.multiple === true && existing[when.field] === condition;
      if (condition !== null && condition !== undefined && (when.in as readonly unknown[]).includes(condition) && !isLinkKept && isEmpty(valueAfter(values, existing, name))) {
        problems.push({ path: name, ...msg('validation.requiredWhen', { field: def.fields[when.field]!.label, value: valueLabel(def.fields[when.field], condition) }) });
      }
    }
    if (field.kind === 'date' && field.notBefore) {
      const start = valueAfter(values, existing, field.notBefore);
      const end = valueAfter(values, existing, name);
      if (isEmpty(start) || isEmpty(end)) continue;
      const from = def.fields[field.notBefore]!.label;
      if (String(end) < String(start)) problems.push({ path: name, ...msg('validation.notBefore', { field: from }) });
      else if (field.maxDays !== undefined && (Date.parse(String(end)) - Date.parse(String(start))) / DAY_MS + 1 > field.maxDays) {
        problems.push({ path: name, ...msg('validation.spanTooLong', { field: from, days: field.maxDays }) });
      }
    }
  }
  if (problems.length > 0) throw badRequest(problems);
}
