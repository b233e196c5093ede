import { SalesArea, School, type ResourceDef } from '@campus/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, waitFor, within } from '@testing-library/react';
import { Form } from 'antd';
import { beforeEach, describe, expect, it } from 'vitest';
import { setLocale, useT } from '../../lib/i18n';
import { FormControl } from './field-control';
import { useRegionParents } from './region-select';

const WAIT = { timeout: 5000 };
let form: ReturnType<typeof Form.useForm>[0];

/** A family's address items (province/city/district or lists of places), as the add/edit drawer lays them out. */
function AddressForm({ def }: { def: ResourceDef }) {
  const t = useT();
  [form] = Form.useForm();
  const { regionParents, clearRegionDependents } = useRegionParents(form, def.fields);
  const regionFields = Object.entries(def.fields).filter(([, field]) => field.kind === 'region' || field.kind === 'places');
  return (
    <Form form={form} onValuesChange={clearRegionDependents}>
      {regionFields.map(([name, field]) => (
        <Form.Item key={name} name={name} label={name}>
          <FormControl field={field} options={{ t, locale: 'en', regionParents }} />
        </Form.Item>
      ))}
    </Form>
  );
}

const comboboxOf = (name: string) => document.getElementById(name) as HTMLInputElement;

/** Types into a picker and clicks the one option left. */
async function pick(name: string, text: string) {
  const input = comboboxOf(name);
  fireEvent.mouseDown(input);
  fireEvent.change(input, { target: { value: text } });
  const option = await waitFor(() => {
    const found = [...document.querySelectorAll('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')].find((item) => item.textContent === text);
    if (!found) throw new Error(`no option ${text}`);
    return found;
  }, WAIT);
  fireEvent.click(option);
}

/** The options a picker offers when opened, as text. */
async function optionsOf(name: string): Promise<string[]> {
  fireEvent.mouseDown(comboboxOf(name));
  const list = await waitFor(() => {
    const open = document.querySelectorAll('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
    const last = open[open.length - 1] as HTMLElement | undefined;
    if (!last || last.querySelectorAll('.ant-select-item-option').length === 0) throw new Error('no open list');
    return last;
  }, WAIT);
  const texts = within(list)
    .getAllByRole('option', { hidden: true })
    .map((option) => option.getAttribute('aria-label') ?? option.textContent ?? '');
  fireEvent.keyDown(comboboxOf(name), { key: 'Escape' });
  return texts;
}

/** Renders a family's address items; `dependent` is disabled until the part it depends on is chosen. */
async function renderAddressForm(def: ResourceDef, dependent: string) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <AddressForm def={def} />
    </QueryClientProvider>,
  );
  await waitFor(() => expect(comboboxOf(dependent).disabled).toBe(true), WAIT);
}

describe('address pickers', { timeout: 20_000 }, () => {
  beforeEach(() => setLocale('en'));

  it('lists the cities of the chosen province and the districts of the chosen city, and clears what no longer fits', async () => {
    await renderAddressForm(School, 'city');

    await pick('province', '浙江省');
    await waitFor(() => expect(comboboxOf('city').disabled).toBe(false), WAIT);
    await pick('city', '杭州市');
    await pick('area', '西湖区');
    expect(form.getFieldsValue()).toEqual({ province: '浙江省', city: '杭州市', area: '西湖区' });

    await pick('province', '江苏省');
    expect(form.getFieldsValue()).toEqual({ province: '江苏省', city: undefined, area: undefined });
    await waitFor(() => expect(comboboxOf('area').disabled).toBe(true), WAIT);
    const cities = await optionsOf('city');
    expect(cities).toContain('南京市');
    expect(cities).not.toContain('杭州市');
  });

  it('keeps several provinces as one comma-joined value and offers the cities of those provinces', async () => {
    await renderAddressForm(SalesArea, 'cities');
    await pick('provinces', '浙江省');
    await pick('provinces', '四川省');
    expect(form.getFieldValue('provinces')).toBe('浙江省,四川省');
    await waitFor(() => expect(comboboxOf('cities').disabled).toBe(false), WAIT);
    await pick('cities', '成都市');
    expect(form.getFieldValue('cities')).toBe('成都市');
    await pick('cities', '宁波市');
    expect(form.getFieldValue('cities')).toBe('成都市,宁波市');
  });
});
