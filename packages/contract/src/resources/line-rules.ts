/**
 * The rules a `lines` field declares across its lines (`rules`: distinct fields, sums), in one place so
 * the server (engine/field-rules.ts) and the form (form/lines-editor.tsx) refuse the same lines alike.
 */
import type { ServerMessage } from '../messages.js';
import type { FieldDef } from './define.js';

type LinesFieldDef = Extract<FieldDef, { kind: 'lines' }>;

/** One broken rule: the line (from 0), the line field it is shown on, and why. */
export interface LineProblem {
  index: number;
  field: string;
  message: ServerMessage;
}

const isEmpty = (value: unknown) => value === undefined || value === null || value === '';

/** The labels of line fields as one label: "公司%、代理商%" / "Company %, Agent %". */
function joinedLabels(field: LinesFieldDef, names: readonly string[]) {
  const labels = names.map((name) => field.fields[name]!.label);
  return { zh: labels.map((label) => label.zh).join('、'), en: labels.map((label) => label.en).join(', ') };
}

/** The broken rules of a field's lines, line by line; none when the field declares no rules. */
export function lineRuleProblems(field: LinesFieldDef, lines: readonly Readonly<Record<string, unknown>>[]): LineProblem[] {
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
      if (seen[position]!.has(String(value))) problems.push({ index, field: rule.field, message: rule.message ? { key: rule.message } : { key: 'lines.repeated', params: { field: field.fields[rule.field]!.label } } });
      seen[position]!.add(String(value));
    });
  });
  return problems;
}
