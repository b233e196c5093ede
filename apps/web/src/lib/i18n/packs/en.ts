/** Everything the console needs to speak English, in one chunk loaded when the language is chosen. */
import antdLocale from 'antd/locale/en_US';
import { en } from '../en';
import type { LanguagePack } from '../language-pack';

// dayjs ships 'en' built in (its week start is set in locale-store).
export const pack: LanguagePack = { messages: en, antdLocale, dayjsLocale: 'en' };
