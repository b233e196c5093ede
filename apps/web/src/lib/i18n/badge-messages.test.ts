import { BADGE_KEYS } from '@campus/contract';
import { describe, expect, it } from 'vitest';
import { en } from './en';
import { zhCN } from './zh-cn';

describe('badge descriptions', () => {
  it('name every badge in both languages (the home page lists pending work by them)', () => {
    const missing = BADGE_KEYS.filter((key) => !(`badge.${key}` in zhCN) || !(`badge.${key}` in en));
    expect(missing).toEqual([]);
  });
});
