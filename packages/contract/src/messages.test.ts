import { describe, expect, it } from 'vitest';
import { SERVER_MESSAGES, formatServerMessage, messageText, parseMessageText } from './messages.js';

describe('the server message catalogue', () => {
  it('has both languages for every key, with the same parameters', () => {
    const names = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
    for (const [key, label] of Object.entries(SERVER_MESSAGES)) {
      expect(label.zh, key).not.toBe('');
      expect(label.en, key).not.toBe('');
      expect(names(label.zh), key).toEqual(names(label.en));
    }
  });

  it('fills parameters, labels in the chosen language and lists joined', () => {
    expect(formatServerMessage('error.recordNotFound', { family: { zh: '学校', en: 'School' }, id: 3 }, 'zh')).toBe('学校 3 不存在');
    expect(formatServerMessage('region.unknownProvinces', { names: ['甲', '乙'] }, 'en')).toBe('not provinces of China: 甲, 乙');
  });

  it('round-trips a message through the text a zod issue carries', () => {
    expect(parseMessageText(messageText('validation.pattern', { text: { zh: '仅字母', en: 'letters only' } }))).toEqual({
      key: 'validation.pattern',
      params: { text: { zh: '仅字母', en: 'letters only' } },
    });
    expect(parseMessageText('Too small: expected string')).toBeUndefined();
  });
});
