import { describe, expect, it } from 'vitest';
import { newOutTradeNo } from '../../src/finance/payments.js';

describe('newOutTradeNo', () => {
  it("encodes the paid time in China's clock, the day staff see beside it", () => {
    // 23:30 UTC on the 26th is 07:30 on the 27th in Shanghai.
    expect(newOutTradeNo(new Date('2026-11-26T23:30:05Z'))).toMatch(/^P20261127073005\d{13}$/);
  });
});
