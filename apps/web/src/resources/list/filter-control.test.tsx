import type { FieldDef } from '@campus/contract';
import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { translate } from '../../lib/i18n';
import { TestApp } from '../../test/antd';
import { FilterControl } from './filter-control';

const loaded = vi.hoisted(() => ({ pickers: 0 }));
vi.mock('../form/date-pickers-part', () => {
  loaded.pickers += 1;
  return { DatePickerPart: () => <span data-testid="picker" />, RangePickerPart: () => <span data-testid="picker" /> };
});

const WARRANTY_END: FieldDef = { kind: 'date', label: { zh: '质保结束', en: 'Warranty end' }, filter: 'range' };
const options = { t: (key: Parameters<typeof translate>[0], params?: Parameters<typeof translate>[1]) => translate(key, params, 'zh-CN'), locale: 'zh-CN' as const };

describe('<FilterControl> of a date range', () => {
  afterEach(() => {
    loaded.pickers = 0;
  });

  it('in the collapsed part of the bar holds an empty place and fetches no picker code', async () => {
    const { container } = render(
      <TestApp>
        <FilterControl field={WARRANTY_END} options={{ ...options, isCollapsed: true }} id="f_endDate" />
      </TestApp>,
    );
    expect(container.querySelector('input#f_endDate[disabled]')).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(loaded.pickers).toBe(0);
    expect(screen.queryByTestId('picker')).toBeNull();
  });

  it('shown, fetches and draws the picker', async () => {
    render(
      <TestApp>
        <FilterControl field={WARRANTY_END} options={options} id="f_endDate" />
      </TestApp>,
    );
    expect(await screen.findByTestId('picker')).toBeTruthy();
    expect(loaded.pickers).toBe(1);
  });
});
