import { AgentFund, Coupon, ExternalUser, FUND_ACCOUNT_SCHOOL, Parent, Poster, School, SchoolHoliday, type FieldDef } from '@campus/contract';
import type { FormRule } from 'antd';
import { describe, expect, it } from 'vitest';
import { translate, type Translate } from '../../lib/i18n';
import { formRules } from '../../lib/validation-rules';
import { fieldRules } from './field-rules';

const t: Translate = (key, params) => translate(key, params, 'en');

/** The pattern rule of a field, as antd will run it. */
function patternOf(field: FieldDef): { pattern: RegExp; message: unknown } {
  // fieldRules answers plain rule objects, never rule functions.
  const rules = fieldRules(field, { t, locale: 'en' }) as Exclude<FormRule, (...args: never[]) => unknown>[];
  const rule = rules.find((r) => r.pattern instanceof RegExp);
  if (!rule?.pattern) throw new Error('no pattern rule');
  return { pattern: rule.pattern, message: rule.message };
}

describe('phone form rules', () => {
  it("takes an agent's seeded 400 service phone where the server does", () => {
    const { pattern, message } = patternOf(ExternalUser.fields.servicePhone1!);
    expect(pattern.test('400-800-0004')).toBe(true);
    expect(pattern.test('010-62345678')).toBe(true);
    expect(pattern.test('400-80-0004')).toBe(false);
    expect(message).toBe('Enter a mobile, a landline with its area code or a 400/800 number');
  });

  it('takes only mobiles in a mobile field', () => {
    const { pattern, message } = patternOf(Parent.fields.phoneNum!);
    expect(pattern.test('13800000004')).toBe(true);
    expect(pattern.test('400-800-0004')).toBe(false);
    expect(message).toBe('Enter an 11-digit mobile number');
  });

  it("lets a school's contact phone be a landline", () => {
    expect(patternOf(School.fields.contactPhone!).pattern.test('0755-1234567')).toBe(true);
  });

  it('gives the profile card the same service-line rule', () => {
    const rules = formRules(t);
    expect(rules.serviceLine.pattern.test('400-800-0004')).toBe(true);
    expect(rules.phone.pattern.test('400-800-0004')).toBe(false);
  });
});

describe('required rules (issue 26)', () => {
  it('asks to choose a province or city, never to type it', () => {
    const zh: Translate = (key, params) => translate(key, params, 'zh-CN');
    const messages = (field: FieldDef) => (fieldRules(field, { t: zh, locale: 'zh-CN' }) as { message?: unknown }[]).map((rule) => rule.message);
    expect(messages(School.fields.province!)).toContain('请选择省');
    expect(messages(School.fields.city!)).toContain('请选择市');
    expect(messages(School.fields.schoolName!)).toContain('请输入学校名称');
  });
});

describe('rules that read another field', () => {
  /** Runs every rule of a field against a value, in a form where `others` hold the other fields. */
  async function problemsOf(field: FieldDef, fields: Record<string, FieldDef>, value: unknown, others: Record<string, unknown>): Promise<string[]> {
    const form = { getFieldValue: (name: string) => others[name] } as never;
    const problems: string[] = [];
    for (const rule of fieldRules(field, { t, locale: 'en', fields })) {
      if (typeof rule !== 'function') continue;
      await Promise.resolve(rule(form).validator?.({} as never, value, () => undefined)).catch((error: Error) => problems.push(error.message));
    }
    return problems;
  }

  it("asks for a school account's school by the type's name, and nothing for a company account", async () => {
    const fields = AgentFund.fields as Record<string, FieldDef>;
    expect(await problemsOf(fields.schoolId!, fields, undefined, { accountType: FUND_ACCOUNT_SCHOOL })).toEqual(['Please enter School when Type is School']);
    expect(await problemsOf(fields.schoolId!, fields, undefined, { accountType: 1 })).toEqual([]);
  });

  it('refuses a holiday ending before it starts, or spanning more than a year', async () => {
    const fields = SchoolHoliday.fields as Record<string, FieldDef>;
    expect(await problemsOf(fields.endDate!, fields, '2026-12-01', { startDate: '2026-12-10' })).toEqual(['To must not be before From']);
    expect(await problemsOf(fields.endDate!, fields, '2027-01-02', { startDate: '2026-01-01' })).toEqual(['To may be at most 366 days from From, both counted']);
    expect(await problemsOf(fields.endDate!, fields, '2027-01-01', { startDate: '2026-01-01' })).toEqual([]);
  });

  it("asks for a poster's image unless its video is there, with the server's message", async () => {
    const fields = Poster.fields as Record<string, FieldDef>;
    expect(await problemsOf(fields.image!, fields, undefined, { video: null })).toEqual(['upload an image or a video']);
    expect(await problemsOf(fields.image!, fields, undefined, { video: '/uploads/2026/03/a.mp4' })).toEqual([]);
    expect(await problemsOf(fields.image!, fields, '/uploads/2026/03/a.png', { video: null })).toEqual([]);
  });

  it("bounds a number by the field it names, with the server's message (a coupon's total by what it issued)", async () => {
    const fields = Coupon.fields as Record<string, FieldDef>;
    expect(await problemsOf(fields.total!, fields, 39, { issued: 40 })).toEqual(['the total cannot be below the 40 already issued']);
    expect(await problemsOf(fields.total!, fields, 40, { issued: 40 })).toEqual([]);
    expect(await problemsOf(fields.total!, fields, 39, { issued: undefined })).toEqual([]);
  });

  it("checks a text's declared items by the field its rule names, as the server does", async () => {
    const options: FieldDef = { kind: 'textarea', label: { zh: '选项', en: 'Options' }, items: { min: 2, max: 3, itemMax: 10, when: { field: 'kind', in: [1] } } };
    const fields: Record<string, FieldDef> = { kind: { kind: 'number', label: { zh: '类', en: 'Kind' } }, options };
    expect(await problemsOf(options, fields, 'a\na', { kind: 1 })).toEqual(['listed twice: a']);
    expect(await problemsOf(options, fields, 'a', { kind: 1 })).toEqual(['needs 2–3 items, one per line']);
    expect(await problemsOf(options, fields, 'a', { kind: 2 })).toEqual(['must be empty here']);
    expect(await problemsOf(options, fields, 'a\nb', { kind: 1 })).toEqual([]);
  });
});

describe('required messages', () => {
  it('asks to enter a password, as a typed field, not to choose one', () => {
    const field: FieldDef = { kind: 'password', label: { zh: '登录密码', en: 'Login password' }, required: true };
    const rules = fieldRules(field, { t, locale: 'en' }) as Exclude<FormRule, (...args: never[]) => unknown>[];
    expect(rules.find((rule) => rule.required)?.message).toBe('Please enter Login password');
  });
});
