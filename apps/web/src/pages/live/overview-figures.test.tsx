import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TestApp } from '../../test/antd';
import { formatChange } from './figure-format';
import { FigureCard } from './overview-figures';

describe('a figure card’s changes', () => {
  it('shows a change against a day with no revenue in yuan, as the value is, not in fen', () => {
    render(
      <TestApp>
        <FigureCard name="revenue" figure={{ today: 52_850, yesterday: 0, lastWeek: 40_000 }} />
      </TestApp>,
    );
    expect(document.querySelector('.ant-statistic-content')?.textContent).toBe('528.50');
    const changes = [...document.querySelectorAll('.figure-change')].map((node) => node.textContent?.trim());
    expect(changes).toEqual(['较昨日 +528.50', '较上周同日 +32.1%']);
  });

  it('colours more devices offline as bad news, and more students as good news', () => {
    render(
      <TestApp>
        <FigureCard name="devicesOffline" figure={{ today: 8, yesterday: 2, lastWeek: 8 }} />
        <FigureCard name="students" figure={{ today: 8, yesterday: 2, lastWeek: 9 }} />
      </TestApp>,
    );
    const tones = [...document.querySelectorAll('.figure-change')].map((node) => node.className.replace('figure-change ', ''));
    expect(tones).toEqual(['is-worse', 'is-flat', 'is-better', 'is-worse']);
  });

  it('gives a percentage where the earlier day had any, and the difference in the figure’s unit where it had none', () => {
    expect(formatChange('students', 120, 100)).toBe('+20%');
    expect(formatChange('students', 80, 100)).toBe('-20%');
    expect(formatChange('students', 1_500, 0)).toBe('+1,500');
    expect(formatChange('revenue', 0, 0)).toBe('0');
    expect(formatChange('revenue', 0, 1_000)).toBe('-100%');
    expect(formatChange('revenue', 1, 0)).toBe('+0.01');
  });
});
