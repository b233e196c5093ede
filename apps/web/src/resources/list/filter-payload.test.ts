import { DeviceClass, License, School } from '@campus/contract';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { buildFilterPayload, initialFilterValues, isEmptyFilterValue } from './filter-payload';

describe('buildFilterPayload', () => {
  it('sends nothing for the School search defaults, which are all "All"', () => {
    expect(buildFilterPayload(School, initialFilterValues(School))).toEqual({});
  });

  it('keeps real values, trims text and drops blanks', () => {
    const payload = buildFilterPayload(School, { schoolName: '  Sunshine ', schoolType: 2, state: -1, licenseKeyRequired: 0, isDirect: false, contactName: 'x' });
    // contactName is not a filter; isDirect false is a real value; licenseKeyRequired 0 is "Not set", not "All".
    expect(payload).toEqual({ schoolName: 'Sunshine', schoolType: 2, licenseKeyRequired: 0, isDirect: false });
  });

  it('treats province/city/area placeholders as empty', () => {
    expect(buildFilterPayload(School, { province: '省', city: 'City', area: '请选择' })).toEqual({});
    expect(buildFilterPayload(School, { province: '浙江省', city: '  ' })).toEqual({ province: '浙江省' });
  });

  it('turns a date range into From/To covering whole days in Shanghai time', () => {
    const payload = buildFilterPayload(School, { createdAt: [dayjs('2024-03-01'), dayjs('2024-03-31')] });
    expect(payload).toEqual({ createdAtFrom: '2024-02-29T16:00:00.000Z', createdAtTo: '2024-03-31T15:59:59.999Z' });
  });

  it('sends one end of an open range only', () => {
    expect(buildFilterPayload(School, { createdAt: [null, dayjs('2024-03-31')] })).toEqual({ createdAtTo: '2024-03-31T15:59:59.999Z' });
  });

  it('does not let a page send a filter it does not declare', () => {
    expect(buildFilterPayload(License, { ticket: 'AB-1', unknown: 'x' })).toEqual({ ticket: 'AB-1' });
  });

  it('sends money filters in cents', () => {
    const withMoneyFilter = { ...DeviceClass, fields: { ...DeviceClass.fields, licensePrice1: { kind: 'money', label: { zh: '', en: '' }, filter: 'range' } } } as const;
    expect(buildFilterPayload(withMoneyFilter, { licensePrice1: [12.3, 45.67] })).toEqual({ licensePrice1From: 1230, licensePrice1To: 4567 });
  });
});

describe('isEmptyFilterValue', () => {
  it('knows the declared "All" value of an enum', () => {
    expect(isEmptyFilterValue(School.fields.state, -1)).toBe(true);
    expect(isEmptyFilterValue(School.fields.state, 0)).toBe(false);
    expect(isEmptyFilterValue(School.fields.schoolType, 0)).toBe(true);
  });
});
