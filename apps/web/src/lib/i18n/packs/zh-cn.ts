/** Everything the console needs to speak Chinese, in one chunk loaded when the language is chosen. */
import antdLocale from 'antd/locale/zh_CN';
import 'dayjs/locale/zh-cn';
import { zhCN } from '../zh-cn';
import type { LanguagePack } from '../language-pack';

export const pack: LanguagePack = { messages: zhCN, antdLocale, dayjsLocale: 'zh-cn' };
