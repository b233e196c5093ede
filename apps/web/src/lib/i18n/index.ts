export { DEFAULT_LOCALE, LOCALES, getLocale, setLocale, subscribeLocale, useLocale, type Locale } from './locale-store';
export { localTitle, translate, useT, type MessageParams, type Translate } from './translate';
export type { MessageKey } from './zh-cn';
