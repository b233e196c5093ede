import type { Locale } from './locale-store';

/** The number-formatting locale of a UI language (grouping and decimal marks). */
export const numberLocaleOf = (locale: Locale) => (locale === 'en' ? 'en-US' : 'zh-CN');

/** A count with the language's thousands separators (37,000). */
export const formatCount = (n: number, locale: Locale) => n.toLocaleString(numberLocaleOf(locale));
