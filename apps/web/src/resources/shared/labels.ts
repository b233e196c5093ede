/** Localised texts of declarations: field labels, enum and bool option labels. */
import type { EnumOption, FieldDef, Label } from '@campus/contract';
import { translate, type Locale } from '../../lib/i18n';

export function labelText(label: Label, locale: Locale): string {
  return locale === 'en' ? label.en : label.zh;
}

export function enumOptionOf(field: FieldDef, value: unknown): EnumOption | undefined {
  if (field.kind !== 'enum') return undefined;
  return field.options.find((option) => String(option.value) === String(value));
}


/** The two labels of a bool field ("Enabled" / "Disabled"), or Yes / No when it declares none. */
export function boolLabels(field: FieldDef, locale: Locale): { trueText: string; falseText: string } {
  const trueLabel = field.kind === 'bool' ? field.trueLabel : undefined;
  const falseLabel = field.kind === 'bool' ? field.falseLabel : undefined;
  return {
    trueText: trueLabel ? labelText(trueLabel, locale) : translate('common.yes', undefined, locale),
    falseText: falseLabel ? labelText(falseLabel, locale) : translate('common.no', undefined, locale),
  };
}

/**
 * The "on" and "off" values of a toggled field: true/false for a bool; for an enum its first two
 * options (declared on-value first, e.g. School state 1 = active, 0 = suspended).
 */
export function toggleValuesOf(field: FieldDef): { on: unknown; off: unknown; onText: (l: Locale) => string; offText: (l: Locale) => string } {
  if (field.kind === 'enum' && field.options.length >= 2) {
    const [on, off] = field.options as [EnumOption, EnumOption];
    return { on: on.value, off: off.value, onText: (l) => labelText(on, l), offText: (l) => labelText(off, l) };
  }
  return { on: true, off: false, onText: (l) => boolLabels(field, l).trueText, offText: (l) => boolLabels(field, l).falseText };
}
