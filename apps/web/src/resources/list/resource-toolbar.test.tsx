import { CompanyUser } from '@campus/contract';
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TestApp } from '../../test/antd.js';
import { BatchToggleButtons } from './resource-toolbar';
import type { ResourceList } from './use-resource-list';

describe('<BatchToggleButtons>', () => {
  it('spaces its buttons apart, as the toolbar spaces the others (issue 26)', () => {
    // The parts of a list the buttons read: the family, its toggles and the selection.
    const list = { def: CompanyUser, buttons: { toggles: CompanyUser.toggles ?? [] }, selectedIds: [], confirmToggle: () => undefined } as unknown as ResourceList;
    const { container } = render(
      <TestApp>
        <BatchToggleButtons list={list} />
      </TestApp>,
    );
    const buttons = container.querySelectorAll('button');
    expect(buttons.length).toBeGreaterThanOrEqual(2);
    for (const button of buttons) expect(button.parentElement?.classList.contains('ant-space-item')).toBe(true);
  });
});
