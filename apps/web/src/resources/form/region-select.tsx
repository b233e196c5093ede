/** Province, city and district pickers: each lists the places under the part chosen before it. */
import type { FieldDef, RegionPart } from '@campus/contract';
import { useQuery } from '@tanstack/react-query';
import { Form, Select, type FormInstance, type SelectProps } from 'antd';
import { useCallback, useMemo } from 'react';

/** The parts chosen so far in the same form; a part's options depend on the parts before it. */
export interface RegionParents {
  province?: string;
  city?: string;
  /** The family's province-level list of places: a city-level list offers their cities. */
  provinces?: readonly string[];
}

// The place list is ~160 KB: loaded with the first address picker, never with the shell.
const loadRegions = async () => {
  const { regionChildren } = await import('@campus/contract/regions');
  return { regionChildren };
};

function useRegions() {
  return useQuery({ queryKey: ['regions'], queryFn: loadRegions, staleTime: Infinity, gcTime: Infinity });
}

type InjectedProps = Record<string, unknown>;

interface RegionSelectProps extends InjectedProps {
  part: RegionPart;
  parents: RegionParents;
  placeholder: string;
  allowClear: boolean;
}

/** A searchable select of the provinces, of the chosen province's cities or of the chosen city's districts. */
export function RegionSelect({ part, parents, placeholder, allowClear, ...injected }: RegionSelectProps) {
  const regions = useRegions();
  const parentMissing = (part === 'city' && !parents.province) || (part === 'area' && (!parents.province || !parents.city));
  const options = useMemo(() => {
    if (!regions.data || parentMissing) return [];
    const places = part === 'province' ? regions.data.regionChildren() : regions.data.regionChildren(parents.province, part === 'area' ? parents.city : undefined);
    return places.map((place) => ({ value: place.name, label: place.name }));
  }, [regions.data, parentMissing, part, parents.province, parents.city]);
  return (
    <Select
      {...injected}
      options={options}
      loading={regions.isLoading}
      disabled={parentMissing}
      allowClear={allowClear}
      showSearch={{ optionFilterProp: 'label' }}
      placeholder={placeholder}
    />
  );
}

const splitPlaces = (value: unknown): string[] => (typeof value === 'string' && value !== '' ? value.split(',') : []);

interface PlacesSelectProps extends InjectedProps {
  level: 'province' | 'city';
  parents: RegionParents;
  placeholder: string;
  value?: string;
  onChange?: (value: string) => void;
}

/** Several provinces, or several cities of the provinces chosen beside it; the value is the comma-joined text. */
export function PlacesSelect({ level, parents, placeholder, value, onChange, ...injected }: PlacesSelectProps) {
  const regions = useRegions();
  const provinces = parents.provinces;
  const options = useMemo<SelectProps['options']>(() => {
    if (!regions.data) return [];
    const asOptions = (names: readonly { name: string }[]) => names.map(({ name }) => ({ value: name, label: name }));
    if (level === 'province') return asOptions(regions.data.regionChildren());
    return (provinces ?? []).map((province) => ({ label: province, options: asOptions(regions.data.regionChildren(province)) }));
  }, [regions.data, level, provinces]);
  return (
    <Select
      {...injected}
      mode="multiple"
      value={splitPlaces(value)}
      onChange={(next: string[]) => onChange?.(next.join(','))}
      options={options}
      loading={regions.isLoading}
      disabled={level === 'city' && !provinces?.length}
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      placeholder={placeholder}
    />
  );
}

interface RegionFieldNames extends Partial<Record<RegionPart, string>> {
  provinceList?: string;
}

/** Names of a family's province/city/area fields and of its province-level list of places. */
function regionNamesOf(fields: Readonly<Record<string, FieldDef>>): RegionFieldNames {
  const names: RegionFieldNames = {};
  for (const [name, field] of Object.entries(fields)) {
    if (field.kind === 'region') names[field.part] = name;
    if (field.kind === 'places' && field.level === 'province') names.provinceList = name;
  }
  return names;
}

const asPlace = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value : undefined);

/**
 * The parts chosen so far in a form holding a family's address, and the `onValuesChange` handler that
 * clears the parts below one that changed (a district of the old city is no longer valid).
 */
export function useRegionParents(form: FormInstance, fields: Readonly<Record<string, FieldDef>>) {
  const names = useMemo(() => regionNamesOf(fields), [fields]);
  const province = asPlace(Form.useWatch((values: Record<string, unknown>) => (names.province ? values?.[names.province] : undefined), form));
  const city = asPlace(Form.useWatch((values: Record<string, unknown>) => (names.city ? values?.[names.city] : undefined), form));
  const provinceList = Form.useWatch((values: Record<string, unknown>) => (names.provinceList ? values?.[names.provinceList] : undefined), form);
  const parents = useMemo<RegionParents>(
    () => ({ province, city, provinces: typeof provinceList === 'string' ? splitPlaces(provinceList) : undefined }),
    [province, city, provinceList],
  );

  const clearRegionDependents = useCallback(
    (changed: Record<string, unknown>) => {
      const below: RegionPart[] = names.province && names.province in changed ? ['city', 'area'] : names.city && names.city in changed ? ['area'] : [];
      for (const part of below) {
        const name = names[part];
        if (name) form.setFieldValue(name, undefined);
      }
    },
    [names, form],
  );

  return { regionParents: parents, clearRegionDependents };
}
