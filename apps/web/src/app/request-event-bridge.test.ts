import { describe, expect, it } from 'vitest';
import { resetPathFor } from './request-event-bridge';

describe('resetPathFor', () => {
  it('sends code 601 to /reset with the account and the reason', () => {
    expect(resetPathFor('sales 1')).toBe('/reset?reason=mustChangePassword&userName=sales+1');
    expect(resetPathFor('')).toBe('/reset?reason=mustChangePassword');
  });
});
