/**
 * The field rules a declaration states beside each field (`fixed`, `requiredWhen`, `requiredOnRow`, a date's
 * `notBefore` and `maxDays`, a text's `items`, a number's `atMost` / `atLeast`, a lines field's `rules`, who may set it: `probe`,
 * `ownedBy`), checked by the engine on every write so no family restates them in a hook; the web form
 * reads the same declaration (form/field-rules.ts, form/lines-editor.tsx, list/use-hidden-fields.ts).
 */
import { boundProblems, lineRuleProblems, textItemsProblems, type FieldDef, type ResourceDef } from '@campus/contract';
import type { AuthUser } from '../../platform/auth.js';
import { badRequest, forbidden, msg, type FieldProblem } from '../../platform/errors.js';
import type { EngineContext, Row } from './context.js';
import { valueAfter } from './lookup.js';

const DAY_MS = 86_400_000;

const isEmpty = (value: unknown) => value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

/** The label of a value of a field: an enum's option in both languages, else the value itself. */
function valueLabel(field: FieldDef | undefined, value: string | number | boolean) {
  const option = field?.kind === 'enum' ? field.options.find((o) => o.value === value) : undefined;
  return option ? { zh: option.zh, en: option.en } : String(value);
}

/** The owner an `ownedBy` field takes from its caller, or undefined when the caller is not such an owner. */
function ownerOf(user: AuthUser, role: NonNullable<FieldDef['ownedBy']>): number | null | undefined {
  if (role === 'agent') return user.type === 'agent' ? user.id : user.type === 'child' ? user.parentId : undefined;
  if (user.type !== 'sales') return undefined;
  return role === 'seller' ? user.id : user.salesTeamId;
}

/**
 * Applies who may set a field: without its `probe` a caller's Add takes the default and its Update the
 * stored value (a different value is refused on the field); an `ownedBy` field is the caller's own on
 * Add and untouched on Update, unless company staff choose it.
 */
export function applyCallerRules(ctx: Pick<EngineContext, 'user' | 'probes' | 'def'>, values: Row, existing: Row | undefined): Row {
  const out = { ...values };
  const problems: FieldProblem[] = [];
  for (const [name, field] of Object.entries(ctx.def.fields)) {
    if (field.probe && !ctx.probes[field.probe]) {
      const allowed = existing ? existing[name] : (field.defaultValue ?? null);
      if (out[name] !== undefined && out[name] !== null && String(out[name]) !== String(allowed ?? '')) problems.push({ path: name, ...msg('validation.probeNeeded') });
      if (existing) delete out[name];
      else out[name] = allowed;
    }
    if (field.ownedBy && ctx.user.type !== 'company') {
      delete out[name];
      const owner = ownerOf(ctx.user, field.ownedBy);
      if (!existing && owner !== undefined) out[name] = owner;
    }
  }
  if (problems.length > 0) throw badRequest(problems);
  return out;
}

/** Refuses (403, the declared message) a caller the family's `writers` leave out, on every kind of write. */
export function refuseOtherWriters(ctx: Pick<EngineContext, 'user' | 'probes' | 'def'>): void {
  const writers = ctx.def.writers;
  if (!writers) return;
  if ((writers.userTypes && !writers.userTypes.includes(ctx.user.type)) || (writers.probe && !ctx.probes[writers.probe])) throw forbidden(writers.message);
}

/** Refuses an Update that changes a `fixed` field (sending the stored value again is no change). */
export function refuseFixedChanges(def: ResourceDef, values: Row, existing: Row | undefined): void {
  if (!existing) return;
  const changed = Object.entries(def.fields).filter(([name, field]) => field.fixed && values[name] !== undefined && String(values[name] ?? '') !== String(existing[name] ?? ''));
  if (changed.length > 0) throw badRequest(changed.map(([name]) => ({ path: name, ...msg('validation.fixed') })));
}

/**
 * Checks `requiredWhen`, `requiredOnRow`, the date rules, the items of a text sent and the rules across lines sent, on
 * the row as it will be (the values over the stored row). A link field left out of an Update keeps its
 * stored entries, which were checked when written; so do lines left out.
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
    const onRow = field.requiredOnRow;
    if (onRow && [name, ...(onRow.orElse ?? [])].every((other) => isEmpty(valueAfter(values, existing, other)))) problems.push({ path: name, ...msg(onRow.message) });
    if (values[name] !== undefined) {
      for (const message of [...textItemsProblems(field, values[name], { ...existing, ...values }), ...boundProblems(field, values[name], { ...existing, ...values })]) problems.push({ path: name, ...message });
    }
    if (field.kind === 'lines' && Array.isArray(values[name])) {
      for (const line of lineRuleProblems(field, values[name] as Row[], { ...existing, ...values })) problems.push({ path: `${name}.${line.index}.${line.field}`, ...line.message });
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
