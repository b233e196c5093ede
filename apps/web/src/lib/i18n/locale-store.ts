import { useSyncExternalStore } from 'react';
import dayjs from 'dayjs';
import updateLocale from 'dayjs/plugin/updateLocale';
import 'dayjs/locale/zh-cn';
import { WEEK_START } from '@campus/contract';

export const LOCALES = ['zh-CN', 'en'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'zh-CN';
/** localStorage, not sessionStorage: the language choice outlives a log-out and the tab. */
export const LOCALE_STORAGE_KEY = 'campus-ops-locale';

dayjs.extend(updateLocale);
// The seed wants weeks to start on Monday in both languages; dayjs' 'en' starts on Sunday.
dayjs.updateLocale('en', { weekStart: WEEK_START });

const DAYJS_LOCALE: Record<Locale, string> = { 'zh-CN': 'zh-cn', en: 'en' };

function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

function readStoredLocale(): Locale {
  try {
    const stored = window.localStorage.getItem(LOCALE_STORAGE_KEY);
    return isLocale(stored) ? stored : DEFAULT_LOCALE;
  } catch {
    return DEFAULT_LOCALE;
  }
}

let currentLocale: Locale = readStoredLocale();
dayjs.locale(DAYJS_LOCALE[currentLocale]);
const listeners = new Set<() => void>();

/** The locale in force; readable outside React (the request client sends it as Accept-Language). */
export function getLocale(): Locale {
  return currentLocale;
}

/** Switches the language at runtime: texts, antd (through the provider) and dayjs follow. */
export function setLocale(locale: Locale): void {
  if (locale === currentLocale) return;
  currentLocale = locale;
  dayjs.locale(DAYJS_LOCALE[locale]);
  document.documentElement.lang = locale;
  try {
    window.localStorage.setItem(LOCALE_STORAGE_KEY, locale);
  } catch {
    // Private mode may refuse storage; the switch still holds for this page.
  }
  listeners.forEach((listener) => listener());
}

export function subscribeLocale(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useLocale(): Locale {
  return useSyncExternalStore(subscribeLocale, getLocale, getLocale);
}
