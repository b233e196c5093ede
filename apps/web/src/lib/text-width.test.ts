import { describe, expect, it } from 'vitest';
import { textWidth } from './text-width';

describe('textWidth', () => {
  it('measures a longer text wider, and CJK characters about a full em each without a canvas', () => {
    expect(textWidth('Licence required')).toBeGreaterThan(textWidth('Not set'));
    expect(textWidth('商户订单号', 14)).toBe(70);
    expect(textWidth('商户订单号', 12)).toBe(60);
  });
});
