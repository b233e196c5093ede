import type { Label } from '@campus/contract';
import { useCallback } from 'react';
import { localTitle, useLocale, type MessageParams } from '../lib/i18n';

/**
 * Labels the contract declares as `{ zh, en }` (a setting's title and help), in the current locale, with `{name}`
 * parameters filled like the shared dictionary's.
 * @example const text = useLabelText(); text(setting.label) // a label the contract declares
 */
export function useLabelText(): (label: Label, params?: MessageParams) => string {
  const locale = useLocale();
  return useCallback(
    (label: Label, params?: MessageParams) => {
      const template = localTitle(label, locale);
      return params ? template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole)) : template;
    },
    [locale],
  );
}
