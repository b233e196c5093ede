import { describe, expect, it } from 'vitest';
import { MIN_STAGE_SCALE, STAGE_HEIGHT, STAGE_WIDTH, fittedScale } from './use-fitted-stage';

describe('fittedScale', () => {
  it.each([
    [3840, 2160, 2],
    [1920, 1080, 1],
    [1366, 768, 0.7111],
    // 5:4: fitted by width, letterboxed top and bottom, nothing cropped.
    [1280, 1024, 0.6667],
    // Ultra-wide: fitted by height, bands left and right.
    [2560, 1080, 1],
  ])('fits %i×%i whole: scale %f', (width, height, scale) => {
    const fitted = fittedScale(width, height);
    expect(fitted).toBeCloseTo(scale, 3);
    expect(STAGE_WIDTH * fitted).toBeLessThanOrEqual(width + 0.5);
    expect(STAGE_HEIGHT * fitted).toBeLessThanOrEqual(height + 0.5);
  });

  it('keeps a readable scale on a narrow window, which then scrolls', () => {
    expect(fittedScale(390, 844)).toBe(MIN_STAGE_SCALE);
  });
});
