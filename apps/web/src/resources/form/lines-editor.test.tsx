import { Order, Questionnaire, ServiceConfig, type FieldDef } from '@campus/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Button, Form } from 'antd';
import { TestApp } from '../../test/antd.js';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { setLocale } from '../../lib/i18n';
import { RequestError } from '../../lib/request';
import { applyFieldErrors } from '../../lib/form-errors';
import { toWireValue, type FormValues } from './form-values';
import { linesToForm } from './line-values';
import { LinesEditor } from './lines-editor';

const WAIT = { timeout: 5000 };

/** An order's lines as Get answers them. */
const storedItems = [
  { lineNo: 1, deviceClassCode: 'GATE-G3', deviceClassCodeLabel: 'Gate G3', quantity: 1, unitPrice: 680_000, amount: 680_000 },
  { lineNo: 2, deviceClassCode: 'ATT-A8', deviceClassCodeLabel: 'Attendance A8', quantity: 1, unitPrice: 320_000, amount: 320_000 },
];

const itemsField = Order.fields.items as Extract<FieldDef, { kind: 'lines' }>;
const storedLines = linesToForm(itemsField, storedItems);

/** The editor in a bare form as the record drawer holds it: saving answers the wire lines, then puts `serverError` on the fields. */
function renderEditor(serverError?: RequestError, editing: { name: string; field: Extract<FieldDef, { kind: 'lines' }>; lines: Record<string, unknown>[] } = { name: 'items', field: itemsField, lines: storedLines }) {
  const saved = vi.fn();
  function Harness() {
    const [form] = Form.useForm();
    return (
      <Form
        form={form}
        initialValues={{ [editing.name]: editing.lines }}
        onFinish={(values: FormValues) => {
          saved(toWireValue(editing.field, values[editing.name]));
          if (serverError) applyFieldErrors(form, serverError);
        }}
      >
        <LinesEditor name={editing.name} field={editing.field} storedLines={editing.lines} />
        <Button htmlType="submit">Save</Button>
      </Form>
    );
  }
  render(
    <TestApp>
      <QueryClientProvider client={new QueryClient()}>
        <Harness />
      </QueryClientProvider>
    </TestApp>,
  );
  return { saved };
}

// Plain DOM queries rather than *ByRole: computing accessible names over antd's table costs seconds in jsdom.
/** The data rows of the lines table (without header and total). */
const lineRows = () => [...document.querySelectorAll<HTMLElement>('tr.ant-table-row')];
const quantityOf = (row: HTMLElement) => row.querySelector<HTMLInputElement>('input.ant-input-number-input')!;
const button = (text: string) => screen.getByText(text).closest('button')!;

describe('<LinesEditor>', { timeout: 15_000 }, () => {
  beforeEach(() => setLocale('en'));

  it('adds and removes lines, recomputes amounts and the total, and sends only what a client may write', async () => {
    const { saved } = renderEditor();
    expect(await screen.findByText('Gate G3', undefined, WAIT)).toBeTruthy();
    expect(screen.getByText('10,000.00')).toBeTruthy();
    expect(lineRows()).toHaveLength(2);

    fireEvent.click(button('Add line'));
    await waitFor(() => expect(lineRows()).toHaveLength(3), WAIT);
    // A line whose model is not picked yet has no price until the server computes it.
    expect(within(lineRows()[2]!).getAllByText('Computed on save').length).toBeGreaterThan(0);
    fireEvent.click(screen.getByLabelText('Remove line 3'));
    await waitFor(() => expect(lineRows()).toHaveLength(2), WAIT);

    fireEvent.change(quantityOf(lineRows()[0]!), { target: { value: '3' } });
    await waitFor(() => expect(screen.getByText('23,600.00')).toBeTruthy(), WAIT);
    fireEvent.click(button('Save'));
    await waitFor(
      () =>
        expect(saved).toHaveBeenCalledWith([
          { deviceClassCode: 'GATE-G3', quantity: 3 },
          { deviceClassCode: 'ATT-A8', quantity: 1 },
        ]),
      WAIT,
    );
  });

  it('shows a server error on the cell of the line it names', async () => {
    const { saved } = renderEditor(
      new RequestError({ message: 'request error', status: 400, code: 400, errors: [{ path: 'items.1.quantity', message: 'Too many for one order' }], url: '/api/Order/Update', kind: 'http', data: null }),
    );
    await screen.findByText('Attendance A8', undefined, WAIT);
    fireEvent.change(quantityOf(lineRows()[1]!), { target: { value: '5' } });
    fireEvent.click(button('Save'));
    await waitFor(() => expect(saved).toHaveBeenCalled(), WAIT);
    expect(await within(lineRows()[1]!).findByText('Too many for one order', undefined, WAIT)).toBeTruthy();
    expect(within(lineRows()[0]!).queryByText('Too many for one order')).toBeNull();
  });

  it("refuses lines breaking the declared rules across lines on the cell the server would name, before saving", async () => {
    const splitRules = ServiceConfig.fields.splitRules as Extract<FieldDef, { kind: 'lines' }>;
    const rule = (companyPercent: number) => ({ effectiveFrom: '2026-01-01', companyPercent, agentPercent: 30, schoolPercent: 30 });
    const { saved } = renderEditor(undefined, { name: 'splitRules', field: splitRules, lines: linesToForm(splitRules, [rule(40), rule(50)]) });
    await waitFor(() => expect(lineRows()).toHaveLength(2), WAIT);
    fireEvent.click(button('Save'));
    expect(await within(lineRows()[1]!).findByText('company, agent and school shares must add up to 100 (now 110)', undefined, WAIT)).toBeTruthy();
    expect(within(lineRows()[1]!).getByText('one split rule per effective date')).toBeTruthy();
    expect(within(lineRows()[0]!).queryByText('one split rule per effective date')).toBeNull();
    expect(saved).not.toHaveBeenCalled();
  });

  it("checks a question's options by its type, on the options cell", async () => {
    const questions = Questionnaire.fields.questions as Extract<FieldDef, { kind: 'lines' }>;
    const lines = linesToForm(questions, [{ title: 'A', type: 1, isRequired: true, options: '甲\n甲' }, { title: 'B', type: 3, isRequired: true, options: '不该有' }]);
    const { saved } = renderEditor(undefined, { name: 'questions', field: questions, lines });
    await waitFor(() => expect(lineRows()).toHaveLength(2), WAIT);
    fireEvent.click(button('Save'));
    expect(await within(lineRows()[0]!).findByText('listed twice: 甲', undefined, WAIT)).toBeTruthy();
    expect(within(lineRows()[1]!).getByText('a text question has no options')).toBeTruthy();
    expect(saved).not.toHaveBeenCalled();
  });
});
