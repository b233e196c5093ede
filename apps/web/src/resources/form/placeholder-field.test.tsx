import { NOTICE_TEMPLATE_PLACEHOLDERS } from '@campus/contract';
import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import { setLocale } from '../../lib/i18n';
import { TestApp } from '../../test/antd.js';
import { PlaceholderField } from './placeholder-field';

function Harness({ initial }: { initial: string }) {
  const [value, setValue] = useState(initial);
  return <PlaceholderField value={value} onChange={setValue} placeholders={NOTICE_TEMPLATE_PLACEHOLDERS} max={500} />;
}

describe('<PlaceholderField>', { timeout: 15_000 }, () => {
  beforeEach(() => setLocale('en'));

  it('previews the text with each placeholder filled by its sample', () => {
    render(
      <TestApp>
        <Harness initial="{studentName} arrived at {time}" />
      </TestApp>,
    );
    expect(screen.getByTestId('placeholder-preview').textContent).toContain('王小明 arrived at 2026-11-25 08:05');
  });

  it('names the placeholders the template does not know, as the server would refuse them', () => {
    render(
      <TestApp>
        <Harness initial="{studentName} {nope}" />
      </TestApp>,
    );
    expect(screen.getByText('Unknown placeholders: nope')).toBeTruthy();
  });

  it('inserts a placeholder from its tag', () => {
    render(
      <TestApp>
        <Harness initial="Hello " />
      </TestApp>,
    );
    fireEvent.click(screen.getByText(/\{parentName\}/));
    expect((screen.getByRole('textbox') as HTMLTextAreaElement).value).toBe('Hello {parentName}');
  });
});
