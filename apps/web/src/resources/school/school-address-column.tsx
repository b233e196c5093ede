import type { ResourceRow } from '../shared/resource-api';
import type { ResourceColumn } from '../list/columns';
import type { ColumnContext } from '../resource-overrides';

const REGION_PARTS = ['province', 'city', 'area'] as const;

/**
 * "浙江省杭州市西湖区 文三路 90 号": the region parts joined (SEED-SPEC section 3), then the street. A
 * municipality is its own province and city (上海市, 上海市): it is named once, "上海市浦东新区".
 */
export function schoolAddressOf(row: Pick<ResourceRow, string>): string {
  const region = REGION_PARTS.map((part) => row[part])
    .filter((part): part is string => typeof part === 'string' && part !== '')
    .filter((part, index, parts) => part !== parts[index - 1])
    .join('');
  const street = typeof row.schoolAddress === 'string' ? row.schoolAddress.trim() : '';
  return [region, street].filter(Boolean).join(' ');
}

/** Replaces the province, city and district columns with one address column after the school name. */
export function withSchoolAddressColumn(columns: ResourceColumn[], { t }: ColumnContext): ResourceColumn[] {
  const address: ResourceColumn = {
    key: 'schoolAddress',
    title: t('resource.address'),
    width: 260,
    ellipsis: true,
    render: (_: unknown, row: ResourceRow) => schoolAddressOf(row),
  };
  const rest = columns.filter((column) => !(REGION_PARTS as readonly string[]).includes(column.key));
  const after = rest.findIndex((column) => column.key === 'schoolName');
  return [...rest.slice(0, after + 1), address, ...rest.slice(after + 1)];
}
