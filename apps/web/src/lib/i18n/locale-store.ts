import { useSyncExternalStore } from 'react';
import type { ConfigProviderProps } from 'antd';
import dayjs from 'dayjs';
import updateLocale from 'dayjs/plugin/updateLocale';
import { WEEK_START } from '@campus/contract';
import type { MessageKey } from './zh-cn';
import type { LanguagePack } from './language-pack';

export const LOCALES = ['zh-CN', 'en'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'zh-CN';
/** localStorage, not sessionStorage: the language choice outlives a log-out and the tab. */
export const LOCALE_STORAGE_KEY = 'campus-ops-locale';

export type { LanguagePack };

// Each language is a dynamic import, so a page downloads only the language it shows.
const PACK_LOADERS: Record<Locale, () => Promise<LanguagePack>> = {
  'zh-CN': () => import('./packs/zh-cn').then((module) => module.pack),
  en: () => import('./packs/en').then((module) => module.pack),
};
const packs = new Map<Locale, LanguagePack>();
const pending = new Map<Locale, Promise<LanguagePack>>();

dayjs.extend(updateLocale);
// The seed wants weeks to start on Monday in both languages; dayjs' 'en' starts on Sunday.
dayjs.updateLocale('en', { weekStart: WEEK_START });

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
/** The language last asked for: a slow download of an earlier choice must not win over it. */
let requestedLocale: Locale = currentLocale;
const listeners = new Set<() => void>();

/** Downloads a language's pack once (later calls share the download); resolves when it can be shown. */
export function loadLanguage(locale: Locale): Promise<LanguagePack> {
  const loaded = packs.get(locale);
  if (loaded) return Promise.resolve(loaded);
  let download = pending.get(locale);
  if (!download) {
    download = PACK_LOADERS[locale]()
      .then((pack) => {
        packs.set(locale, pack);
        return pack;
      })
      .finally(() => pending.delete(locale));
    pending.set(locale, download);
  }
  return download;
}

/** The texts of a language, or undefined while its pack is not loaded. */
export function messagesOf(locale: Locale): Record<MessageKey, string> | undefined {
  return packs.get(locale)?.messages;
}

/** antd's locale object for a loaded language (antd's built-in English otherwise). */
export function antdLocaleOf(locale: Locale): ConfigProviderProps['locale'] {
  return packs.get(locale)?.antdLocale;
}

/** The locale in force; readable outside React (the request client sends it as Accept-Language). */
export function getLocale(): Locale {
  return currentLocale;
}

function applyLocale(locale: Locale): void {
  const pack = packs.get(locale);
  if (!pack || locale === currentLocale) return;
  currentLocale = locale;
  dayjs.locale(pack.dayjsLocale);
  document.documentElement.lang = locale;
  listeners.forEach((listener) => listener());
}

/**
 * Switches the language at runtime: texts, antd (through the provider) and dayjs follow together once
 * the language's pack is loaded; until then the page keeps the current language, so no message key
 * ever shows. A loaded language switches at once (synchronously). The choice is remembered.
 */
export function setLocale(locale: Locale): Promise<void> {
  requestedLocale = locale;
  try {
    window.localStorage.setItem(LOCALE_STORAGE_KEY, locale);
  } catch {
    // Private mode may refuse storage; the switch still holds for this page.
  }
  if (packs.has(locale)) {
    applyLocale(locale);
    return Promise.resolve();
  }
  return loadLanguage(locale).then(() => {
    if (requestedLocale === locale) applyLocale(locale);
  });
}

/**
 * Loads the stored language before the first render, so the first paint is already translated. A
 * pack that cannot be downloaded falls back to the default language.
 */
export async function loadInitialLanguage(): Promise<void> {
  const locale = currentLocale;
  const pack = await loadLanguage(locale).catch(() => null);
  if (pack) {
    dayjs.locale(pack.dayjsLocale);
    document.documentElement.lang = locale;
    return;
  }
  if (locale === DEFAULT_LOCALE) return;
  currentLocale = DEFAULT_LOCALE;
  requestedLocale = DEFAULT_LOCALE;
  await loadInitialLanguage();
}

export function subscribeLocale(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useLocale(): Locale {
  return useSyncExternalStore(subscribeLocale, getLocale, getLocale);
}
