/** antd validation rules from a field declaration, with messages in the current locale. */
import { PHONE_PATTERNS, boundFields, boundProblems, formatServerMessage, textItemsProblems, type FieldDef } from '@campus/contract';
import type { FormRule } from 'antd';
import type { Locale, Translate } from '../../lib/i18n';
import { centsToYuan } from '../shared/field-values';
import { labelText } from '../shared/labels';

const DEFAULT_TEXT_MAX = 200;
const DEFAULT_TEXTAREA_MAX = 2000;

export interface RuleContext {
  t: Translate;
  locale: Locale;
  /** On edit a password may stay empty (unchanged) even when the field is required. */
  isEdit?: boolean;
  /** The family's fields, for rules naming another field (`requiredWhen`, `notBefore`). */
  fields?: Readonly<Record<string, FieldDef>>;
}

const isEmpty = (value: unknown) => value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
const DAY_MS = 86_400_000;
/** A date as the form holds it (a dayjs) or as the wire does, as YYYY-MM-DD. */
const dayOf = (value: unknown) => (typeof value === 'string' ? value.slice(0, 10) : (value as { format(f: string): string }).format('YYYY-MM-DD'));

/** The rules that read another field of the form: the same the server checks (engine/field-rules.ts). */
function crossFieldRules(field: FieldDef, name: string, { t, locale, fields }: RuleContext): FormRule[] {
  const rules: FormRule[] = [];
  const when = field.requiredWhen;
  const other = when ? fields?.[when.field] : undefined;
  if (when && other) {
    rules.push(({ getFieldValue }) => ({
      validator(_, value) {
        const condition = getFieldValue(when.field) as string | number | boolean | undefined;
        if (condition === undefined || !(when.in as readonly unknown[]).includes(condition) || !isEmpty(value)) return Promise.resolve();
        const option = other.kind === 'enum' ? other.options.find((o) => o.value === condition) : undefined;
        const shown = option ? labelText(option, locale) : String(condition);
        return Promise.reject(new Error(t('resource.requiredWhen', { field: name, when: labelText(other.label, locale), value: shown })));
      },
    }));
  }
  const onRow = field.requiredOnRow;
  if (onRow) {
    rules.push(({ getFieldValue }) => ({
      validator(_, value) {
        const isMissing = isEmpty(value) && (onRow.orElse ?? []).every((other) => isEmpty(getFieldValue(other)));
        return isMissing ? Promise.reject(new Error(formatServerMessage(onRow.message, undefined, locale === 'en' ? 'en' : 'zh'))) : Promise.resolve();
      },
    }));
  }
  const items = field.kind === 'text' || field.kind === 'textarea' ? field.items : undefined;
  // A line field's items are checked with its line (lines-editor.tsx), where the line's other fields are.
  if (items && fields) {
    rules.push(({ getFieldValue }) => ({
      validator(_, value) {
        const [problem] = textItemsProblems(field, value, items.when ? { [items.when.field]: getFieldValue(items.when.field) } : {});
        return problem ? Promise.reject(new Error(formatServerMessage(problem.key, problem.params, locale === 'en' ? 'en' : 'zh'))) : Promise.resolve();
      },
    }));
  }
  const bounds = boundFields(field);
  if (bounds.length > 0 && fields) {
    rules.push(({ getFieldValue }) => ({
      validator(_, value) {
        const [problem] = boundProblems(field, value, Object.fromEntries(bounds.map((other) => [other, getFieldValue(other) as unknown])));
        return problem ? Promise.reject(new Error(formatServerMessage(problem.key, problem.params, locale === 'en' ? 'en' : 'zh'))) : Promise.resolve();
      },
    }));
  }
  const start = field.kind === 'date' && field.notBefore ? fields?.[field.notBefore] : undefined;
  if (field.kind === 'date' && field.notBefore && start) {
    const { notBefore, maxDays } = field;
    rules.push(({ getFieldValue }) => ({
      validator(_, value) {
        const from = getFieldValue(notBefore) as unknown;
        if (isEmpty(value) || isEmpty(from)) return Promise.resolve();
        const [startDay, endDay] = [dayOf(from), dayOf(value)];
        const otherName = labelText(start.label, locale);
        if (endDay < startDay) return Promise.reject(new Error(t('resource.notBefore', { field: name, other: otherName })));
        if (maxDays !== undefined && (Date.parse(endDay) - Date.parse(startDay)) / DAY_MS + 1 > maxDays) {
          return Promise.reject(new Error(t('resource.spanTooLong', { field: name, other: otherName, days: maxDays })));
        }
        return Promise.resolve();
      },
    }));
  }
  return rules;
}

/** The fields another field's rules read, so the form checks that field again when they change. */
export function ruleDependencies(field: FieldDef): string[] {
  const items = field.kind === 'text' || field.kind === 'textarea' ? field.items : undefined;
  return [field.requiredWhen?.field, ...(field.requiredOnRow?.orElse ?? []), field.kind === 'date' ? field.notBefore : undefined, items?.when?.field, ...boundFields(field)].filter(
    (name): name is string => name !== undefined,
  );
}

export function fieldRules(field: FieldDef, context: RuleContext): FormRule[] {
  const { t, locale, isEdit = false } = context;
  const name = labelText(field.label, locale);
  const rules: FormRule[] = crossFieldRules(field, name, context);
  if (field.required && !(isEdit && field.kind === 'password')) {
    const isText = field.kind === 'text' || field.kind === 'textarea' || field.kind === 'phone' || field.kind === 'password' || field.kind === 'region' || field.kind === 'places';
    // A province or city is picked, not typed: "请选择省".
    const isPicked = field.kind === 'region' || field.kind === 'places';
    // Only text rules may carry `whitespace`: any extra key makes antd check the value as a string,
    // which a number, bool or date never is.
    rules.push(
      isText
        ? { required: true, whitespace: true, message: t(isPicked ? 'resource.requiredChoice' : 'common.required', { field: name }) }
        : { required: true, message: t(field.kind === 'number' || field.kind === 'money' ? 'common.required' : 'resource.requiredChoice', { field: name }) },
    );
  }
  switch (field.kind) {
    case 'text': {
      const max = field.max ?? DEFAULT_TEXT_MAX;
      rules.push({ max, message: t('resource.maxLength', { field: name, max }) });
      if (field.min !== undefined) rules.push({ min: field.min, message: t('resource.minLength', { field: name, min: field.min }) });
      if (field.pattern) {
        const message = field.patternMessage ? labelText(field.patternMessage, locale) : t('resource.invalidFormat', { field: name });
        rules.push({ pattern: new RegExp(field.pattern), message });
      }
      break;
    }
    case 'textarea': {
      const max = field.max ?? DEFAULT_TEXTAREA_MAX;
      rules.push({ max, message: t('resource.maxLength', { field: name, max }) });
      break;
    }
    case 'phone':
      // The contract's pattern for the field's meaning: the server checks the same one.
      rules.push({ pattern: PHONE_PATTERNS[field.phoneKind], message: t(field.phoneKind === 'mobile' ? 'validate.phone' : 'validate.serviceLine') });
      break;
    case 'number':
    case 'money': {
      // Money limits are declared in cents; the form edits yuan.
      const scale = field.kind === 'money' ? centsToYuan : (v: number) => v;
      const min = field.min ?? (field.kind === 'money' ? 0 : undefined);
      if (min !== undefined) rules.push({ type: 'number', min: scale(min), message: t('resource.minValue', { field: name, min: scale(min) }) });
      if (field.max !== undefined) rules.push({ type: 'number', max: scale(field.max), message: t('resource.maxValue', { field: name, max: scale(field.max) }) });
      break;
    }
    case 'region':
      rules.push({ max: 50, message: t('resource.maxLength', { field: name, max: 50 }) });
      break;
    case 'image':
    case 'file':
      rules.push({ max: 500, message: t('resource.maxLength', { field: name, max: 500 }) });
      break;
    default:
      break;
  }
  return rules;
}
