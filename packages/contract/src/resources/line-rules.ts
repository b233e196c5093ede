/**
 * The rules a `lines` field declares across its lines (`rules`: distinct fields, sums) and the lists a
 * text field holds (`items`), in one place so the server (engine/field-rules.ts) and the form
 * (form/lines-editor.tsx, form/field-rules.ts) refuse the same values alike.
 */
import type { ServerMessage } from '../messages.js';
import type { FieldDef } from './define.js';

const isEmpty = (value: unknown) => value === undefined || value === null || value === '';

/** The items of a list typed one per line: trimmed, blanks dropped. */
export function textItemsOf(text: string | null | undefined): string[] {
  return (text ?? '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}

/** What is wrong with the list a text field with `items` holds, given the row (or line) it lies on. */
export function textItemsProblems(field: FieldDef, value: unknown, row: Readonly<Record<string, unknown>>): ServerMessage[] {
  const rule = field.kind === 'text' || field.kind === 'textarea' ? field.items : undefined;
  if (!rule) return [];
  const items = textItemsOf(typeof value === 'string' ? value : undefined);
  const { count = 'validation.itemsCount', tooLong = 'validation.itemTooLong', twice = 'validation.itemTwice', notHere = 'validation.itemsNotHere' } = rule.messages ?? {};
  if (rule.when && !(rule.when.in as readonly unknown[]).includes(row[rule.when.field])) return items.length > 0 ? [{ key: notHere }] : [];
  if (items.length < rule.min || items.length > rule.max) return [{ key: count, params: { min: rule.min, max: rule.max } }];
  const problems: ServerMessage[] = [];
  if (items.some((item) => item.length > rule.itemMax)) problems.push({ key: tooLong, params: { max: rule.itemMax } });
  const repeated = items.find((item, position) => items.indexOf(item) !== position);
  if (repeated !== undefined) problems.push({ key: twice, params: { item: repeated } });
  return problems;
}

/** The other fields a number's bounds read (`atMost`, `atLeast`): what a form must pass to boundProblems. */
export function boundFields(field: FieldDef): string[] {
  return field.kind === 'number' ? [field.atMost?.field, field.atLeast?.field].filter((other): other is string => other !== undefined) : [];
}

/**
 * What is wrong with a number against the bounds it reads from another field (`atMost`, `atLeast`) of
 * `row` (the row, or a line's parent row): nothing while either value is empty.
 */
export function boundProblems(field: FieldDef, value: unknown, row: Readonly<Record<string, unknown>>): ServerMessage[] {
  if (field.kind !== 'number' || isEmpty(value)) return [];
  const problems: ServerMessage[] = [];
  for (const [bound, breaks] of [
    [field.atMost, (limit: number) => Number(value) > limit],
    [field.atLeast, (limit: number) => Number(value) < limit],
  ] as const) {
    const limit = bound ? row[bound.field] : undefined;
    if (bound && !isEmpty(limit) && breaks(Number(limit))) problems.push({ key: bound.message, params: { limit: Number(limit) } });
  }
  return problems;
}

type LinesFieldDef = Extract<FieldDef, { kind: 'lines' }>;

/** One broken rule: the line (from 0), the line field it is shown on, and why. */
export interface LineProblem {
  index: number;
  field: string;
  message: ServerMessage;
}

/** The labels of line fields as one label: "公司%、代理商%" / "Company %, Agent %". */
function joinedLabels(field: LinesFieldDef, names: readonly string[]) {
  const labels = names.map((name) => field.fields[name]!.label);
  return { zh: labels.map((label) => label.zh).join('、'), en: labels.map((label) => label.en).join(', ') };
}

/**
 * The broken rules of a field's lines, line by line: across the lines, then each line field's `items`
 * and its bounds, read from `row` (the parent row as it will be).
 */
export function lineRuleProblems(field: LinesFieldDef, lines: readonly Readonly<Record<string, unknown>>[], row: Readonly<Record<string, unknown>> = {}): LineProblem[] {
  const problems: LineProblem[] = [];
  const { distinct = [], sums = [] } = field.rules ?? {};
  const seen = distinct.map(() => new Set<string>());
  lines.forEach((line, index) => {
    for (const sum of sums) {
      const total = sum.fields.reduce((added, name) => added + Number(line[name] ?? 0), 0);
      if (total === sum.equals) continue;
      problems.push({ index, field: sum.fields[0], message: sum.message ? { key: sum.message, params: { sum: total } } : { key: 'lines.sumNotEqual', params: { fields: joinedLabels(field, sum.fields), equals: sum.equals, sum: total } } });
    }
    distinct.forEach((rule, position) => {
      const value = line[rule.field];
      if (isEmpty(value)) return;
      if (seen[position]!.has(String(value))) problems.push({ index, field: rule.field, message: rule.message ? { key: rule.message, params: { value: String(value) } } : { key: 'lines.repeated', params: { field: field.fields[rule.field]!.label } } });
      seen[position]!.add(String(value));
    });
    for (const [name, lineField] of Object.entries(field.fields)) {
      for (const message of textItemsProblems(lineField, line[name], line)) problems.push({ index, field: name, message });
      for (const message of boundProblems(lineField, line[name], row)) problems.push({ index, field: name, message });
    }
  });
  return problems;
}
