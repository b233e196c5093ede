import { describe, expect, it } from 'vitest';
import { PHONE_PATTERNS, phoneSchema } from './phones.js';
import { fieldValueSchema } from './resources/schemas.js';
import { RESOURCES } from './resources/index.js';

describe('phone rules', () => {
  const serviceLines = ['400-800-0004', '4008000004', '800-820-1234', '010-62345678', '0755-1234567', '02162345678', '010-62345678-123', '13800000004'];
  const notServiceLines = ['400-80-0004', '4001234', '12345', '1380000000', '62345678', '010-623', 'tel:4008000004', '400-800-00045'];

  it.each(serviceLines)('takes %s as a service line', (phone) => {
    expect(PHONE_PATTERNS.serviceLine.test(phone)).toBe(true);
    expect(phoneSchema('serviceLine').safeParse(` ${phone} `).success).toBe(true);
  });

  it.each(notServiceLines)('refuses %s as a service line', (phone) => {
    expect(PHONE_PATTERNS.serviceLine.test(phone)).toBe(false);
  });

  it('takes only 11-digit mobiles as a mobile', () => {
    expect(phoneSchema('mobile').safeParse('13800000004').success).toBe(true);
    for (const phone of ['400-800-0004', '010-62345678', '1380000000', '138000000045']) expect(phoneSchema('mobile').safeParse(phone).success).toBe(false);
  });

  it('gives every phone field of every family a meaning, and the schema follows it', () => {
    const phoneFields = Object.values(RESOURCES).flatMap((def) => Object.entries(def.fields).filter(([, field]) => field.kind === 'phone').map(([name, field]) => ({ family: def.name, name, field })));
    expect(phoneFields.length).toBeGreaterThan(5);
    for (const { field } of phoneFields) {
      if (field.kind !== 'phone') continue;
      const schema = fieldValueSchema(field);
      expect(schema.safeParse('13800000004').success).toBe(true);
      expect(schema.safeParse('400-800-0004').success).toBe(field.phoneKind === 'serviceLine');
    }
    const servicePhone = phoneFields.find((entry) => entry.family === 'ExternalUser' && entry.name === 'servicePhone1');
    expect(servicePhone?.field).toMatchObject({ phoneKind: 'serviceLine' });
  });
});
