import { describe, expect, it } from 'vitest';
import { REGIONS, invalidRegionPart, isBlankRegion, regionChildren } from './regions.js';

describe('regions', () => {
  it('holds every province with its cities and the districts created in 2021', () => {
    expect(REGIONS).toHaveLength(34);
    expect(regionChildren('浙江省').map((city) => city.name)).toContain('杭州市');
    expect(regionChildren('浙江省', '杭州市').map((area) => area.name)).toEqual(expect.arrayContaining(['西湖区', '临平区', '钱塘区']));
    expect(regionChildren('北京市').map((city) => city.name)).toEqual(['北京市']);
    expect(regionChildren('火星')).toEqual([]);
  });

  it('accepts consistent addresses, blank trailing parts included', () => {
    expect(invalidRegionPart({ province: '浙江省', city: '杭州市', area: '西湖区' })).toBeNull();
    expect(invalidRegionPart({ province: '浙江省', city: '杭州市' })).toBeNull();
    expect(invalidRegionPart({ province: '浙江省', city: null, area: '' })).toBeNull();
    expect(invalidRegionPart({})).toBeNull();
  });

  it('names the first part that is not a place under the ones before it', () => {
    expect(invalidRegionPart({ province: '测试省', city: '杭州市' })).toBe('province');
    expect(invalidRegionPart({ province: '江苏省', city: '杭州市' })).toBe('city');
    expect(invalidRegionPart({ province: '浙江省', city: '杭州市', area: '鼓楼区' })).toBe('area');
    expect(invalidRegionPart({ province: '浙江省', area: '西湖区' })).toBe('area');
    expect(invalidRegionPart({ city: '杭州市' })).toBe('city');
  });

  it('treats the seed placeholders as blank', () => {
    expect(isBlankRegion('请选择')).toBe(true);
    expect(isBlankRegion(' 省 ')).toBe(true);
    expect(isBlankRegion('浙江省')).toBe(false);
    expect(invalidRegionPart({ province: '浙江省', city: '市', area: '区' })).toBeNull();
  });
});
