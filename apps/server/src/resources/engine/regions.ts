/** A family's province/city/area fields must name a real place, each part under the one before it. */
import type { FieldDef, RegionPart, ResourceDef } from '@campus/contract';
import { invalidRegionPart, isBlankRegion, type RegionValue } from '@campus/contract/regions';
import { badRequest } from '../../platform/errors.js';
import type { Row } from './context.js';
import { valueAfter } from './lookup.js';

const PART_MESSAGES: Record<RegionPart, string> = {
  province: 'not a province of China',
  city: 'not a city of the chosen province',
  area: 'not a district of the chosen city',
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
export function checkRegion(def: ResourceDef, values: Row, existing?: Row): Row {
  const parts = Object.entries(regionFieldsOf(def)) as [RegionPart, string][];
  if (!parts.some(([, name]) => values[name] !== undefined)) return values;
  const normalised: Row = { ...values };
  const after: RegionValue = {};
  for (const [part, name] of parts) {
    if (normalised[name] !== undefined && isBlankRegion(normalised[name])) normalised[name] = null;
    const value = valueAfter(normalised, existing, name);
    after[part] = value === null || value === undefined ? null : String(value);
  }
  const missing = parts.find(([part, name]) => def.fields[name]!.required && after[part] === null);
  if (missing) throw badRequest([{ path: missing[1], message: 'required' }]);
  const invalid = invalidRegionPart(after);
  if (invalid) {
    const name = regionFieldsOf(def)[invalid]!;
    throw badRequest([{ path: name, message: PART_MESSAGES[invalid] }]);
  }
  return normalised;
}
