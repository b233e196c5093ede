import { useCallback } from 'react';
import { getLocale, messagesOf, useLocale, type Locale } from './locale-store';
import type { MessageKey } from './zh-cn';

export type MessageParams = Record<string, string | number>;
export type Translate = (key: MessageKey, params?: MessageParams) => string;

/**
 * Looks a message up and fills its `{name}` parameters; outside React it uses the current locale.
 * The current locale's texts are always loaded (see setLocale); another, not loaded, language falls
 * back to the current one rather than showing a key.
 */
export function translate(key: MessageKey, params?: MessageParams, locale: Locale = getLocale()): string {
  const template = messagesOf(locale)?.[key] ?? messagesOf(getLocale())?.[key] ?? key;
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/**
 * The translate function of the current locale; components re-render when the language switches.
 * @example const t = useT(); t('index.greeting', { name: 'admin' })
 */
export function useT(): Translate {
  const locale = useLocale();
  return useCallback((key: MessageKey, params?: MessageParams) => translate(key, params, locale), [locale]);
}

/** Picks the zh or en variant of a contract title (frames and groups carry both). */
export function localTitle(titles: { zh: string; en: string }, locale: Locale): string {
  return locale === 'en' ? titles.en : titles.zh;
}
