export {
  DEFAULT_LOCALE,
  LOCALES,
  antdLocaleOf,
  getLocale,
  loadInitialLanguage,
  loadLanguage,
  setLocale,
  subscribeLocale,
  useLocale,
  type LanguagePack,
  type Locale,
} from './locale-store';
export { formatCount, numberLocaleOf } from './numbers';
export { localTitle, translate, useT, type MessageParams, type Translate } from './translate';
export type { MessageKey } from './zh-cn';
