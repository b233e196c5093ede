/** Table tools: refresh, density and which columns are shown. */
import { ColumnHeightOutlined, ReloadOutlined, SettingOutlined } from '@ant-design/icons';
import { Button, Checkbox, Dropdown, Popover, Space, Tooltip } from 'antd';
import { useT } from '../lib/i18n';

export type Density = 'large' | 'middle' | 'small';

interface TableSettingsProps {
  columns: readonly { key: string; title: string }[];
  hiddenColumns: ReadonlySet<string>;
  onHiddenColumnsChange: (hidden: Set<string>) => void;
  density: Density;
  onDensityChange: (density: Density) => void;
  onRefresh: () => void;
  isRefreshing: boolean;
}

export function TableSettings({ columns, hiddenColumns, onHiddenColumnsChange, density, onDensityChange, onRefresh, isRefreshing }: TableSettingsProps) {
  const t = useT();
  const toggleColumn = (key: string, isShown: boolean) => {
    const next = new Set(hiddenColumns);
    if (isShown) next.delete(key);
    else next.add(key);
    onHiddenColumnsChange(next);
  };
  const columnList = (
    <div className="resource-column-settings">
      {columns.map((column) => (
        <Checkbox key={column.key} checked={!hiddenColumns.has(column.key)} onChange={(event) => toggleColumn(column.key, event.target.checked)}>
          {column.title}
        </Checkbox>
      ))}
      <Button type="link" size="small" onClick={() => onHiddenColumnsChange(new Set())}>
        {t('resource.columnsReset')}
      </Button>
    </div>
  );
  return (
    <Space size={4}>
      <Tooltip title={t('resource.refresh')}>
        <Button type="text" icon={<ReloadOutlined spin={isRefreshing} />} onClick={onRefresh} aria-label={t('resource.refresh')} />
      </Tooltip>
      <Dropdown
        trigger={['click']}
        menu={{
          selectable: true,
          selectedKeys: [density],
          items: [
            { key: 'large', label: t('resource.densityLarge') },
            { key: 'middle', label: t('resource.densityMiddle') },
            { key: 'small', label: t('resource.densitySmall') },
          ],
          onClick: ({ key }) => onDensityChange(key as Density),
        }}
      >
        <Tooltip title={t('resource.density')}>
          <Button type="text" icon={<ColumnHeightOutlined />} aria-label={t('resource.density')} />
        </Tooltip>
      </Dropdown>
      <Popover trigger="click" placement="bottomRight" title={t('resource.columnSettings')} content={columnList}>
        <Tooltip title={t('resource.columnSettings')}>
          <Button type="text" icon={<SettingOutlined />} aria-label={t('resource.columnSettings')} />
        </Tooltip>
      </Popover>
    </Space>
  );
}
