import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { intArray } from '../../src/platform/sql-terms.js';

describe('intArray', () => {
  const dialect = new PgDialect();

  it('binds whole numbers as one int[] parameter, the same text for any count', () => {
    expect(dialect.sqlToQuery(intArray([3, 1, 2]))).toMatchObject({ sql: '$1::int[]', params: ['{3,1,2}'] });
    expect(dialect.sqlToQuery(intArray(new Set([7]))).sql).toBe('$1::int[]');
    expect(dialect.sqlToQuery(intArray([])).params).toEqual(['{}']);
  });

  it('refuses anything but safe integers', () => {
    expect(() => intArray([1, 1.5])).toThrow(/whole numbers/);
    expect(() => intArray([Number.NaN])).toThrow(/whole numbers/);
    expect(() => intArray(['1' as unknown as number])).toThrow(/whole numbers/);
  });
});
