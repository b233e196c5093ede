import { CompanyUser, School, type FieldDef } from '@campus/contract';
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { translate, type Translate } from '../../lib/i18n';
import { TestApp } from '../../test/antd.js';
import { FormControl } from './field-control';

const t: Translate = (key, params) => translate(key, params, 'zh-CN');

function switchTexts(field: FieldDef, checked: boolean): string {
  const { container } = render(
    <TestApp>
      <FormControl field={field} options={{ t, locale: 'zh-CN' }} value={checked} />
    </TestApp>,
  );
  return container.querySelector('.ant-switch')?.textContent ?? '';
}

describe('<FormControl> switches (issue 26)', () => {
  it('answers yes or no on a switch named by its own "on" value: 直营 off is 否, not 代理', () => {
    expect(School.fields.isDirect).toMatchObject({ trueLabel: { zh: '直营' }, falseLabel: { zh: '代理' } });
    expect(switchTexts(School.fields.isDirect!, false)).toContain('否');
    expect(switchTexts(School.fields.isDirect!, false)).not.toContain('代理');
  });

  it('keeps a switch\'s own words where they do not repeat its label', () => {
    const enabled = Object.values(CompanyUser.fields).find((field) => field.kind === 'bool' && field.trueLabel && labelOf(field) !== field.trueLabel.zh);
    if (!enabled || enabled.kind !== 'bool') throw new Error('no such switch');
    expect(switchTexts(enabled, true)).toContain(enabled.trueLabel!.zh);
  });
});

const labelOf = (field: FieldDef) => field.label.zh;
