import { describe, expect, it } from 'vitest';
import { School, Device } from './index.js';
import { addSchemaOf, exportQuerySchemaOf, searchSchemaOf, updateSchemaOf } from './schemas.js';

describe('searchSchemaOf', () => {
  it('treats the seed search defaults and address placeholders as no filter', () => {
    const parsed = searchSchemaOf(School).parse({ licenseKeyRequired: -1, schoolType: 0, state: -1, province: '省', city: '', schoolName: '' });
    expect(parsed).toEqual({ pageIndex: 1, pageSize: 20 });
  });

  it('keeps real filter values and coerces numbers', () => {
    const parsed = searchSchemaOf(School).parse({ pageIndex: '2', state: '1', province: '浙江省' });
    expect(parsed).toMatchObject({ pageIndex: 2, state: 1, province: '浙江省' });
  });

  it('caps the page size at 200', () => {
    expect(searchSchemaOf(School).safeParse({ pageSize: 201 }).success).toBe(false);
  });

  it('splits range filters into From and To', () => {
    const parsed = exportQuerySchemaOf(Device).parse({ createdAtFrom: '2026-01-01T00:00:00+08:00' });
    expect(parsed).toMatchObject({ createdAtFrom: '2026-01-01T00:00:00+08:00', maxCount: 100000 });
  });

  it('refuses an enum value the declaration does not list', () => {
    expect(searchSchemaOf(School).safeParse({ state: 7 }).success).toBe(false);
  });
});

describe('addSchemaOf / updateSchemaOf', () => {
  it('requires required fields and refuses unknown and read-only ones', () => {
    const add = addSchemaOf(School);
    expect(add.safeParse({ province: '浙江省', city: '杭州市', schoolType: 1 }).success).toBe(false);
    expect(add.safeParse({ schoolName: 'A', province: '浙江省', city: '杭州市', schoolType: 1, examineState: 1 }).success).toBe(false);
    expect(add.safeParse({ schoolName: 'A', province: '浙江省', city: '杭州市', schoolType: 1 }).success).toBe(true);
  });

  it('needs id and version on update and lets optional fields be cleared', () => {
    const update = updateSchemaOf(School);
    expect(update.safeParse({ schoolName: 'A' }).success).toBe(false);
    expect(update.parse({ id: 1, version: 2, contactName: '' })).toEqual({ id: 1, version: 2, contactName: null });
  });
});
