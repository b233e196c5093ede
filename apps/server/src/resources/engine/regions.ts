/**
 * A family's province/city/area fields must name a real place, each part under the one before it;
 * its lists of places (`places`) must name real provinces, and cities of the provinces listed.
 */
import type { FieldDef, RegionPart, ResourceDef } from '@campus/contract';
import { invalidRegionPart, isBlankRegion, regionChildren, type RegionValue } from '@campus/contract/regions';
import type { ServerMessageKey } from '@campus/contract';
import { badRequest, msg } from '../../platform/errors.js';
import type { Row } from './context.js';
import { valueAfter } from './lookup.js';

const PART_MESSAGES: Record<RegionPart, ServerMessageKey> = {
  province: 'region.unknownProvince',
  city: 'region.unknownCity',
  area: 'region.unknownArea',
};

/** The family's address fields by part (a family has at most one address). */
function regionFieldsOf(def: ResourceDef): Partial<Record<RegionPart, string>> {
  const parts: Partial<Record<RegionPart, string>> = {};
  for (const [name, field] of Object.entries(def.fields) as [string, FieldDef][]) {
    if (field.kind === 'region') parts[field.part] = name;
  }
  return parts;
}

/**
 * Checks the address a write leaves on the row (placeholders stored as null); untouched addresses are
 * not re-checked, so rows imported before the check can still be edited elsewhere.
 */
function checkRegion(def: ResourceDef, values: Row, existing?: Row): Row {
  const names = regionFieldsOf(def);
  const parts = Object.entries(names) as [RegionPart, string][];
  if (!parts.some(([, name]) => values[name] !== undefined)) return values;
  const normalised: Row = { ...values };
  const after: RegionValue = {};
  for (const [part, name] of parts) {
    if (normalised[name] !== undefined && isBlankRegion(normalised[name])) normalised[name] = null;
    const value = valueAfter(normalised, existing, name);
    after[part] = value === null || value === undefined ? null : String(value);
  }
  const missing = parts.find(([part, name]) => def.fields[name]!.required && after[part] === null);
  if (missing) throw badRequest([{ path: missing[1], ...msg('region.required') }]);
  const invalid = invalidRegionPart(after);
  if (invalid) throw badRequest([{ path: names[invalid]!, ...msg(PART_MESSAGES[invalid]) }]);
  return normalised;
}

const placesOf = (value: unknown): string[] => (typeof value === 'string' && value !== '' ? value.split(',') : []);

/** The places a write leaves in a family's lists that are not real (cities: not in a province listed). */
function checkPlaces(def: ResourceDef, values: Row, existing?: Row): void {
  const lists = (Object.entries(def.fields) as [string, FieldDef][]).filter(([, field]) => field.kind === 'places');
  if (!lists.some(([name]) => values[name] !== undefined)) return;
  const provinceList = lists.find(([, field]) => field.kind === 'places' && field.level === 'province');
  const provinces = provinceList ? placesOf(valueAfter(values, existing, provinceList[0])) : [];
  const known = new Set(regionChildren().map((node) => node.name));
  const citiesOfProvinces = new Set(provinces.flatMap((province) => regionChildren(province).map((node) => node.name)));
  for (const [name, field] of lists) {
    if (field.kind !== 'places') continue;
    const isProvince = field.level === 'province';
    const unknown = placesOf(valueAfter(values, existing, name)).filter((place) => !(isProvince ? known : citiesOfProvinces).has(place));
    if (unknown.length > 0) {
      throw badRequest([{ path: name, ...msg(isProvince ? 'region.unknownProvinces' : 'region.unknownCities', { names: unknown }) }]);
    }
  }
}

/** Checks the addresses and lists of places a write leaves on the row; answers the values to store. */
export function checkAddress(def: ResourceDef, values: Row, existing?: Row): Row {
  const located = checkRegion(def, values, existing);
  checkPlaces(def, located, existing);
  return located;
}
