/** A Select over another family's rows (GET /api/{Family}/Options), searched as the user types. */
import { PLAIN_REFERENCE_FAMILIES, RESOURCES, type FieldDef, type ReferenceOption } from '@campus/contract';
import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { useMemo, useState } from 'react';
import { useDebouncedValue } from '../../hooks/use-debounced-value';
import { useT } from '../../lib/i18n';
import { fetchOptions } from '../shared/resource-api';

type ReferenceField = Extract<FieldDef, { kind: 'reference' }>;

const SEARCH_DEBOUNCE_MS = 300;

/** Whether the referenced family answers Options: every declared family, and the plain ones listed in the contract. */
export function isPickable(field: FieldDef): field is ReferenceField {
  return (
    field.kind === 'reference' &&
    (RESOURCES[field.family] !== undefined || (PLAIN_REFERENCE_FAMILIES as readonly string[]).includes(field.family))
  );
}

type ReferenceValue = number | string;

export interface ReferenceSelectProps {
  field: ReferenceField;
  /** One id, or a list of ids for a `multiple` reference. */
  value?: ReferenceValue | readonly ReferenceValue[] | null;
  onChange?: (value: ReferenceValue | ReferenceValue[] | undefined) => void;
  /**
   * Display value of the current value (the row's `${field}Label`; a list for a multiple reference),
   * shown before the options arrive.
   */
  currentLabel?: string | readonly string[];
  /** Restrict the options to one school (a class picker under a chosen school). */
  schoolId?: number;
  disabled?: boolean;
  placeholder?: string;
  id?: string;
}

export function ReferenceSelect({ field, value, onChange, currentLabel, schoolId, disabled, placeholder, id }: ReferenceSelectProps) {
  const t = useT();
  const [typed, setTyped] = useState('');
  // Options are asked for when the list is first opened, not for every picker a page mounts.
  const [wasOpened, setWasOpened] = useState(false);
  const keyword = useDebouncedValue(typed.trim(), SEARCH_DEBOUNCE_MS);
  const { data, isFetching } = useQuery({
    queryKey: ['referenceOptions', field.family, field.key ?? 'id', schoolId ?? null, keyword],
    queryFn: () => fetchOptions(field.family, { ...field.optionsFilter, keyword: keyword || undefined, schoolId, valueField: field.key }),
    enabled: !disabled && (wasOpened || keyword !== ''),
    staleTime: 30_000,
  });

  const options = useMemo(() => {
    const loaded: ReferenceOption[] = data ?? [];
    const values: readonly ReferenceValue[] = value === undefined || value === null ? [] : Array.isArray(value) ? value : [value as ReferenceValue];
    const labels: readonly (string | undefined)[] = Array.isArray(currentLabel) ? currentLabel : [currentLabel as string | undefined];
    const missing = values
      .map((one, position) => ({ value: one, label: labels[position] ?? String(one) }))
      .filter((one) => !loaded.some((option) => String(option.value) === String(one.value)));
    return [...missing, ...loaded];
  }, [data, value, currentLabel]);

  return (
    <Select<ReferenceValue | ReferenceValue[]>
      id={id}
      mode={field.multiple ? 'multiple' : undefined}
      showSearch={{ filterOption: false, onSearch: setTyped }}
      allowClear
      value={(value as ReferenceValue | ReferenceValue[] | null | undefined) ?? undefined}
      onChange={(next) => {
        setTyped('');
        onChange?.(next ?? undefined);
      }}
      options={options}
      loading={isFetching}
      onOpenChange={(open) => open && setWasOpened(true)}
      disabled={disabled}
      placeholder={placeholder ?? t('resource.searchPlaceholder')}
      notFoundContent={isFetching ? t('common.loading') : undefined}
      style={{ width: '100%' }}
    />
  );
}
