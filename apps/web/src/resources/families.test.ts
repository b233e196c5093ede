import { RESOURCES, isLogFamily } from '@campus/contract';
import { describe, expect, it } from 'vitest';
import { WEB_FAMILY_MODULES } from './families';

describe('the web family modules', () => {
  it('name only families the contract declares', () => {
    expect(WEB_FAMILY_MODULES.map((module) => module.family).filter((family) => !RESOURCES[family])).toEqual([]);
  });

  it('list each family once', () => {
    const families = WEB_FAMILY_MODULES.map((module) => module.family);
    expect(families.filter((family, index) => families.indexOf(family) !== index)).toEqual([]);
  });

  it('give log parts only to log families', () => {
    expect(WEB_FAMILY_MODULES.filter((module) => module.log && !isLogFamily(RESOURCES[module.family]!)).map((module) => module.family)).toEqual([]);
  });
});
