import { describe, expect, it } from 'vitest';
import type { FieldDef } from './define.js';
import { ServiceConfig } from './finance.js';
import { boundProblems, lineRuleProblems, textItemsProblems } from './line-rules.js';
import { Coupon } from './mall.js';
import { Nvr } from './nvr.js';
import { Questionnaire } from './questionnaire.js';

type LinesField = Extract<FieldDef, { kind: 'lines' }>;

const number = (zh: string, en: string): FieldDef => ({ kind: 'number', label: { zh, en } });
/** A field declaring both rules without their own messages: the generic ones apply. */
const shares: LinesField = {
  kind: 'lines',
  table: 'shares',
  label: { zh: '份额', en: 'Shares' },
  fields: { code: { kind: 'text', label: { zh: '代码', en: 'Code' } }, a: number('甲', 'A'), b: number('乙', 'B') },
  rules: { distinct: [{ field: 'code' }], sums: [{ fields: ['a', 'b'], equals: 10 }] },
};

describe('lineRuleProblems', () => {
  it('names each line breaking a sum on its first field, and each repeat after the first on its field', () => {
    const problems = lineRuleProblems(shares, [
      { code: 'x', a: 4, b: 6 },
      { code: 'x', a: 4, b: 5 },
      { code: 'y', a: 10 },
      { code: 'X', a: 5, b: 5 },
    ]);
    expect(problems).toEqual([
      { index: 1, field: 'a', message: { key: 'lines.sumNotEqual', params: { fields: { zh: '甲、乙', en: 'A, B' }, equals: 10, sum: 9 } } },
      { index: 1, field: 'code', message: { key: 'lines.repeated', params: { field: { zh: '代码', en: 'Code' } } } },
    ]);
  });

  it('does not compare empty values, and answers nothing for a field without rules', () => {
    expect(lineRuleProblems(shares, [{ a: 5, b: 5 }, { code: '', a: 5, b: 5 }, { code: null, a: 5, b: 5 }])).toEqual([]);
    expect(lineRuleProblems({ ...shares, rules: undefined }, [{ code: 'x', a: 1 }, { code: 'x', a: 1 }])).toEqual([]);
  });

  it("takes a family's own messages: a split rule's shares add up to 100, one rule per effective date", () => {
    const problems = lineRuleProblems(ServiceConfig.fields.splitRules as LinesField, [
      { effectiveFrom: '2026-01-01', companyPercent: 50, agentPercent: 30, schoolPercent: 30 },
      { effectiveFrom: '2026-01-01', companyPercent: 50, agentPercent: 20, schoolPercent: 30 },
    ]);
    expect(problems).toEqual([
      { index: 0, field: 'companyPercent', message: { key: 'finance.splitNot100', params: { sum: 110 } } },
      { index: 1, field: 'effectiveFrom', message: { key: 'finance.splitDateRepeated', params: { value: '2026-01-01' } } },
    ]);
  });
});

describe('textItemsProblems', () => {
  const list: FieldDef = { kind: 'textarea', label: { zh: '清单', en: 'List' }, items: { min: 2, max: 3, itemMax: 4 } };

  it('counts the trimmed, non-blank lines, then refuses long items and the first repeat', () => {
    expect(textItemsProblems(list, ' a \n\n b\r\n', {})).toEqual([]);
    expect(textItemsProblems(list, 'a', {})).toEqual([{ key: 'validation.itemsCount', params: { min: 2, max: 3 } }]);
    expect(textItemsProblems(list, 'a\nb\nc\nd', {})).toEqual([{ key: 'validation.itemsCount', params: { min: 2, max: 3 } }]);
    expect(textItemsProblems(list, 'abcde\nb\nb', {})).toEqual([
      { key: 'validation.itemTooLong', params: { max: 4 } },
      { key: 'validation.itemTwice', params: { item: 'b' } },
    ]);
    expect(textItemsProblems({ ...list, items: undefined } as FieldDef, 'a', {})).toEqual([]);
  });

  it("applies a question's options while it is a choice, and wants none on a text question, within its line", () => {
    const questions = Questionnaire.fields.questions as LinesField;
    const problems = lineRuleProblems(questions, [
      { title: 'A', type: 1, options: '唯一' },
      { title: 'B', type: 3, options: '不该有' },
      { title: 'C', type: 2, options: '甲\n甲' },
      { title: 'D', type: 3 },
      { title: 'E', type: 1, options: '是\n否' },
    ]);
    expect(problems).toEqual([
      { index: 0, field: 'options', message: { key: 'questionnaire.optionsCount', params: { min: 2, max: 20 } } },
      { index: 1, field: 'options', message: { key: 'questionnaire.textHasOptions' } },
      { index: 2, field: 'options', message: { key: 'questionnaire.optionTwice', params: { item: '甲' } } },
    ]);
  });
});

describe('boundProblems', () => {
  it("bounds a line's number by its parent row's field (an NVR's channels by its count), each channel once", () => {
    const channels = Nvr.fields.channels as LinesField;
    const line = (channelNo: number) => ({ channelNo, cameraName: 'x' });
    expect(lineRuleProblems(channels, [line(1), line(4)], { channelCount: 4 })).toEqual([]);
    expect(lineRuleProblems(channels, [line(1), line(5), line(1)], { channelCount: 4 })).toEqual([
      { index: 1, field: 'channelNo', message: { key: 'nvr.channelBeyondCount', params: { limit: 4 } } },
      { index: 2, field: 'channelNo', message: { key: 'nvr.channelTwice', params: { value: '1' } } },
    ]);
    // Without the count (an Update that leaves it out reads the stored one) nothing bounds the lines.
    expect(lineRuleProblems(channels, [line(9)])).toEqual([]);
  });

  it("bounds a row's number by another field of the row (a coupon's total by what it issued)", () => {
    expect(boundProblems(Coupon.fields.total, 10, { issued: 10 })).toEqual([]);
    expect(boundProblems(Coupon.fields.total, 9, { issued: 10 })).toEqual([{ key: 'mall.totalBelowIssued', params: { limit: 10 } }]);
    expect(boundProblems(Coupon.fields.total, undefined, { issued: 10 })).toEqual([]);
    expect(boundProblems(Coupon.fields.total, 1, { issued: null })).toEqual([]);
  });
});
