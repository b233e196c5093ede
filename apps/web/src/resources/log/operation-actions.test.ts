import { describe, expect, it } from 'vitest';
import { operationActionOptions, operationActionText } from './operation-actions';

describe('operationActionText', () => {
  it('names engine actions and a family transition in the caller language', () => {
    expect(operationActionText('Order', 'update', 'zh-CN')).toBe('修改');
    expect(operationActionText('Order', 'update', 'en')).toBe('Edit');
    expect(operationActionText('Order', 'confirm', 'zh-CN')).not.toBe('confirm');
  });

  it('falls back to the code for an unknown action', () => {
    expect(operationActionText('Order', 'somethingNew', 'zh-CN')).toBe('somethingNew');
  });

  it('offers every code once as a filter option', () => {
    const values = operationActionOptions().map((option) => option.value);
    expect(values).toContain('add');
    expect(new Set(values).size).toBe(values.length);
  });
});
