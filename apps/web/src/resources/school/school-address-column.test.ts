import { describe, expect, it } from 'vitest';
import { schoolAddressOf } from './school-address-column';

describe('schoolAddressOf', () => {
  it('names a municipality once: it is its own province and city (issue 26)', () => {
    expect(schoolAddressOf({ province: '上海市', city: '上海市', area: '浦东新区', schoolAddress: '张江路100号' })).toBe('上海市浦东新区 张江路100号');
    expect(schoolAddressOf({ province: '北京市', city: '北京市', area: '海淀区' })).toBe('北京市海淀区');
  });

  it('joins a province, its city and district, then the street', () => {
    expect(schoolAddressOf({ province: '浙江省', city: '杭州市', area: '西湖区', schoolAddress: ' 文三路66号 ' })).toBe('浙江省杭州市西湖区 文三路66号');
  });
});
