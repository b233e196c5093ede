import { render, screen } from '@testing-library/react';
import { Form } from 'antd';
import { describe, expect, it } from 'vitest';
import { TestApp } from '../../test/antd.js';
import { InputNumber } from './deferred-inputs';

describe('deferred inputs', { timeout: 15_000 }, () => {
  it('name their stand-in by the form item label while the picker code downloads', async () => {
    render(
      <TestApp>
        <Form>
          <Form.Item label="Notice" htmlFor="notice-filter">
            <InputNumber id="notice-filter" style={{ width: '100%' }} />
          </Form.Item>
        </Form>
      </TestApp>,
    );
    // The stand-in is drawn first (the lazy module has not resolved yet): disabled, with the label's id.
    const standIn = screen.getByLabelText('Notice');
    expect(standIn.hasAttribute('disabled')).toBe(true);
    // Then the real input arrives under the same label.
    await expect.poll(() => screen.getByLabelText('Notice').hasAttribute('disabled'), { timeout: 5_000 }).toBe(false);
  });
});
