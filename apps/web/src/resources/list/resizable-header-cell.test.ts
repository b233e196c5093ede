import { MAX_COLUMN_WIDTH, MIN_COLUMN_WIDTH } from '@campus/contract';
import { describe, expect, it } from 'vitest';
import { RESIZE_KEY_BIG_STEP, RESIZE_KEY_STEP, widthForKey } from './resizable-header-cell';

describe('widthForKey', () => {
  it('moves the edge by a step per arrow key, a bigger one with Shift, within the allowed widths', () => {
    expect(widthForKey('ArrowRight', 200, false)).toBe(200 + RESIZE_KEY_STEP);
    expect(widthForKey('ArrowLeft', 200, true)).toBe(200 - RESIZE_KEY_BIG_STEP);
    expect(widthForKey('ArrowLeft', MIN_COLUMN_WIDTH + 3, false)).toBe(MIN_COLUMN_WIDTH);
    expect(widthForKey('ArrowRight', MAX_COLUMN_WIDTH - 3, true)).toBe(MAX_COLUMN_WIDTH);
    expect(widthForKey('Home', 200, false)).toBe(MIN_COLUMN_WIDTH);
    expect(widthForKey('End', 200, false)).toBe(MAX_COLUMN_WIDTH);
  });

  it('leaves other keys alone', () => {
    for (const key of ['Enter', ' ', 'ArrowUp', 'Tab', 'a']) expect(widthForKey(key, 200, false)).toBeNull();
  });
});
