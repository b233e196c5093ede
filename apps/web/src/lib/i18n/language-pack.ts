import type { ConfigProviderProps } from 'antd';
import type { MessageKey } from './zh-cn';

/**
 * One language's texts, antd's locale and dayjs' locale name: loaded together, each language its own
 * chunk. Apart from locale-store.ts, which loads the packs, so a pack does not import its loader.
 */
export interface LanguagePack {
  messages: Record<MessageKey, string>;
  antdLocale: NonNullable<ConfigProviderProps['locale']>;
  dayjsLocale: string;
}
