import { DeviceClass, DeviceDelivery, Parent, School, ServiceConfig, type FieldDef } from '@campus/contract';
import { describe, expect, it } from 'vitest';
import { hashPassword } from '../../lib/md5';
import { instantToPickerValue } from '../shared/field-values';
import { buildAddBody, changedFields, defaultFormValues, rowToFormValues, toFormValue, toWireValue, writableFieldsOf } from './form-values';

const row = (values: Record<string, unknown>) => ({ id: 7, version: 3, ...values });

describe('writableFieldsOf', () => {
  it('leaves out read-only and form: false fields, as the Add schema does', () => {
    const names = writableFieldsOf(School.fields).map(([name]) => name);
    expect(names).toContain('schoolName');
    expect(names).not.toContain('state');
    expect(names).not.toContain('examineState');
    expect(names).not.toContain('createdAt');
  });
});

describe('money in forms', () => {
  const fields = writableFieldsOf(DeviceClass.fields);

  it('edits yuan and sends cents', () => {
    expect(rowToFormValues(fields, row({ licensePrice1: 12345 })).licensePrice1).toBe(123.45);
    expect(buildAddBody(fields, { name: 'Gate X', licensePrice1: 0.1 + 0.2 }).licensePrice1).toBe(30);
  });
});

describe('buildAddBody', () => {
  it('drops blanks, trims text and hashes passwords', () => {
    const fields = writableFieldsOf(Parent.fields);
    expect(buildAddBody(fields, { name: ' Li ', phoneNum: '13800000000', password: 'secret1', relation: undefined })).toEqual({
      name: 'Li',
      phoneNum: '13800000000',
      password: hashPassword('secret1'),
    });
  });

  it('starts an Add form at the declared defaults', () => {
    expect(defaultFormValues(writableFieldsOf(School.fields))).toMatchObject({ schoolType: 1, licenseKeyRequired: 0, isDirect: false });
  });
});

describe('changedFields', () => {
  const fields = writableFieldsOf(School.fields);
  const stored = row({ schoolName: 'Sunshine', province: '浙江省', city: '杭州市', area: null, schoolType: 1, isDirect: false, contactName: 'Wang' });

  it('sends nothing when nothing changed', () => {
    expect(changedFields(fields, stored, rowToFormValues(fields, stored))).toEqual({});
  });

  it('sends only the changed fields, and null for a cleared optional one', () => {
    const values = { ...rowToFormValues(fields, stored), schoolName: 'Sunrise', contactName: '' };
    expect(changedFields(fields, stored, values)).toEqual({ schoolName: 'Sunrise', contactName: null });
  });

  it('treats an empty password as unchanged and a typed one as MD5', () => {
    const parentFields = writableFieldsOf(Parent.fields);
    const parent = row({ name: 'Li', phoneNum: '13800000000', enabled: true });
    expect(changedFields(parentFields, parent, { ...rowToFormValues(parentFields, parent), password: '' })).toEqual({});
    expect(changedFields(parentFields, parent, { ...rowToFormValues(parentFields, parent), password: 'n3w-pass' })).toEqual({ password: hashPassword('n3w-pass') });
  });

  it('compares times by the instant, not by the text', () => {
    const deliveryFields = writableFieldsOf(DeviceDelivery.fields);
    const delivery = row({ installationTime: '2024-05-01T02:30:00.000Z' });
    const values = { ...rowToFormValues(deliveryFields, delivery) };
    expect(changedFields(deliveryFields, delivery, values)).toEqual({});
    values.installationTime = instantToPickerValue('2024-05-01T03:30:00Z');
    expect(changedFields(deliveryFields, delivery, values)).toEqual({ installationTime: '2024-05-01T03:30:00.000Z' });
  });

  it("edits a line's date with the date picker and sends it back as the day", () => {
    const splitRules = ServiceConfig.fields.splitRules as FieldDef;
    const wire = [{ effectiveFrom: '2026-01-01', companyPercent: 40, agentPercent: 30, schoolPercent: 30 }];
    const form = toFormValue(splitRules, wire) as Record<string, unknown>[];
    expect((form[0]!.effectiveFrom as { format(f: string): string }).format('YYYY-MM-DD')).toBe('2026-01-01');
    expect(toWireValue(splitRules, form)).toEqual(wire);
  });
});
