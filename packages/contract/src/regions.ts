/**
 * China's provinces, cities and districts (GB/T 2260 codes, names as stored on rows), from
 * `@vant/area-data`. A separate entry point (`@campus/contract/regions`): the data is ~160 KB, so
 * the web loads it only when a page with an address opens.
 */
import { areaList } from '@vant/area-data';
import { ADDRESS_PLACEHOLDERS } from './constants.js';
import type { RegionPart } from './resources/define.js';

export interface RegionNode {
  code: string;
  name: string;
  children: RegionNode[];
}

function buildTree(): RegionNode[] {
  const provinces = new Map<string, RegionNode>();
  const cities = new Map<string, RegionNode>();
  for (const [code, name] of Object.entries(areaList.province_list)) provinces.set(code.slice(0, 2), { code, name, children: [] });
  for (const [code, name] of Object.entries(areaList.city_list)) {
    const city: RegionNode = { code, name, children: [] };
    cities.set(code.slice(0, 4), city);
    provinces.get(code.slice(0, 2))?.children.push(city);
  }
  for (const [code, name] of Object.entries(areaList.county_list)) cities.get(code.slice(0, 4))?.children.push({ code, name, children: [] });
  return [...provinces.values()];
}

/** Provinces, each with its cities, each with its districts, in code order. */
export const REGIONS: readonly RegionNode[] = buildTree();

/** True when an address part holds no value: blank or one of the seed's placeholders. */
export function isBlankRegion(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  return (ADDRESS_PLACEHOLDERS as readonly string[]).includes(String(value).trim());
}

/** The places one level below `parent` (provinces when `parent` is undefined); empty when unknown. */
export function regionChildren(province?: string, city?: string): readonly RegionNode[] {
  if (province === undefined) return REGIONS;
  const provinceNode = REGIONS.find((node) => node.name === province);
  if (!provinceNode) return [];
  if (city === undefined) return provinceNode.children;
  return provinceNode.children.find((node) => node.name === city)?.children ?? [];
}

export type RegionValue = Partial<Record<RegionPart, string | null>>;

/**
 * The first part of an address that is not a real place under the parts before it, or null when the
 * address is consistent. Blank parts are allowed here (whether a part is required is the form's rule),
 * but a district needs its city.
 */
export function invalidRegionPart(value: RegionValue): RegionPart | null {
  const { province, city, area } = value;
  if (isBlankRegion(province)) {
    // A city needs its province; a district alone needs its city first.
    if (!isBlankRegion(city)) return 'city';
    return isBlankRegion(area) ? null : 'area';
  }
  if (!regionChildren(undefined).some((node) => node.name === province)) return 'province';
  if (isBlankRegion(city)) return isBlankRegion(area) ? null : 'area';
  if (!regionChildren(province!).some((node) => node.name === city)) return 'city';
  if (isBlankRegion(area)) return null;
  return regionChildren(province!, city!).some((node) => node.name === area) ? null : 'area';
}
