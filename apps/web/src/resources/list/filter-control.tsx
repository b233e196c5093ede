/**
 * The control of a field in the filter bar. Apart from the form's controls (field-control.tsx), which
 * download with the drawers: a list shows its filters at once. Date pickers and number inputs, rare
 * among filters, come in their own chunks when such a filter shows (deferred-inputs.tsx).
 */
import type { FieldDef } from '@campus/contract';
import { Input, Select, Space } from 'antd';
import { DatePicker, InputNumber, RangePicker } from '../form/deferred-inputs';
import type { ControlContext, InjectedProps } from '../form/field-control';
import { boolLabels, labelText } from '../shared/labels';
import { ReferenceSelect, isPickable } from '../form/reference-select';
import { RegionSelect } from '../form/region-select';

/** A pair of number inputs for a numeric range filter. */
function NumberRange({ value, onChange, id }: { value?: [number | null, number | null]; onChange?: (v: [number | null, number | null]) => void; id?: string }) {
  const [from, to] = value ?? [null, null];
  return (
    <Space.Compact block>
      <InputNumber id={id} style={{ width: '50%' }} value={from} onChange={(next) => onChange?.([next, to])} />
      <InputNumber style={{ width: '50%' }} value={to} onChange={(next) => onChange?.([from, next])} />
    </Space.Compact>
  );
}

export interface FilterControlOptions extends ControlContext {
  schoolId?: number | null;
  /** In the collapsed part of the bar: not drawn, so its picker's code is not fetched yet. */
  isCollapsed?: boolean;
}

/** Whether a filter's control is one of the deferred inputs (a date or number picker, fetched when first drawn). */
function isDeferredControl(field: FieldDef): boolean {
  return field.kind === 'date' || field.kind === 'datetime' || ((field.kind === 'number' || field.kind === 'money') && field.filter !== undefined);
}

/** The control of a field in the filter bar: "All" where the family declares its value. */
export function FilterControl({ field, options, ...injected }: { field: FieldDef; options: FilterControlOptions } & InjectedProps) {
  const { t, locale } = options;
  const isMultiple = field.filter === 'in';
  // A collapsed filter keeps its value in the form; until the bar expands it holds an empty place.
  if (options.isCollapsed && isDeferredControl(field)) return <Input disabled id={typeof injected.id === 'string' ? injected.id : undefined} />;
  if (field.filter === 'range') {
    if (field.kind === 'date' || field.kind === 'datetime') {
      return <RangePicker {...injected} style={{ width: '100%' }} placeholder={[t('resource.startDate'), t('resource.endDate')]} allowEmpty={[true, true]} />;
    }
    return <NumberRange {...injected} />;
  }
  switch (field.kind) {
    case 'enum': {
      const all = field.filterAll !== undefined ? [{ value: field.filterAll, label: t('resource.all') }] : [];
      const choices = [...all, ...field.options.map((option) => ({ value: option.value, label: labelText(option, locale) }))];
      return (
        <Select
          {...injected}
          mode={isMultiple ? 'multiple' : undefined}
          options={choices}
          allowClear={field.filterAll === undefined}
          placeholder={t('resource.all')}
        />
      );
    }
    case 'bool': {
      const { trueText, falseText } = boolLabels(field, locale);
      const choices = [
        { value: true, label: trueText },
        { value: false, label: falseText },
      ];
      return <Select {...injected} options={choices} allowClear placeholder={t('resource.all')} />;
    }
    case 'date':
      return <DatePicker {...injected} style={{ width: '100%' }} />;
    case 'datetime':
      return <DatePicker {...injected} style={{ width: '100%' }} />;
    case 'number':
    case 'money':
      return <InputNumber {...injected} style={{ width: '100%' }} />;
    case 'reference':
      return isPickable(field) ? (
        <ReferenceSelect
          {...injected}
          field={field}
          schoolId={options.schoolId ?? undefined}
          placeholder={t('resource.all')}
        />
      ) : null;
    case 'region':
      return <RegionSelect {...injected} part={field.part} parents={options.regionParents ?? {}} allowClear placeholder={t('resource.all')} />;
    case 'places':
      // "Covers this province": one province is looked for in the list.
      if (field.level === 'province') return <RegionSelect {...injected} part="province" parents={{}} allowClear placeholder={t('resource.all')} />;
      return <Input {...injected} allowClear placeholder={t('resource.inputPlaceholder')} />;
    default:
      return <Input {...injected} allowClear placeholder={t('resource.inputPlaceholder')} />;
  }
}
