/** Table tools: refresh, density, and the columns' visibility, order and pins (with a reset). */
import { ArrowDownOutlined, ArrowUpOutlined, ColumnHeightOutlined, PushpinFilled, PushpinOutlined, ReloadOutlined, SettingOutlined } from '@ant-design/icons';
import type { ColumnPin, TableDensity } from '@campus/contract';
import { Button, Checkbox, Dropdown, Popover, Space, Tooltip, Typography } from 'antd';
import { useT } from '../../lib/i18n';
import type { TableSettingsState } from './use-table-settings';

type SettingsParts = Pick<
  TableSettingsState,
  'hiddenColumns' | 'onHiddenColumnsChange' | 'density' | 'onDensityChange' | 'pinned' | 'moveColumn' | 'setPin' | 'reset'
>;

interface TableSettingsProps extends SettingsParts {
  /** The data columns in the order shown (hidden ones included, where they would be). */
  columns: readonly { key: string; title: string }[];
  onRefresh: () => void;
  isRefreshing: boolean;
}

const NEXT_PIN: Record<string, ColumnPin | null> = { none: 'left', left: 'right', right: null };

/** Reads the list (or the tree) again; spins while it reads. */
export function RefreshButton({ onRefresh, isRefreshing }: { onRefresh: () => void; isRefreshing: boolean }) {
  const t = useT();
  return (
    <Tooltip title={t('resource.refresh')}>
      <Button type="text" icon={<ReloadOutlined spin={isRefreshing} />} onClick={onRefresh} aria-label={t('resource.refresh')} />
    </Tooltip>
  );
}

export function TableSettings({ columns, hiddenColumns, onHiddenColumnsChange, density, onDensityChange, pinned, moveColumn, setPin, reset, onRefresh, isRefreshing }: TableSettingsProps) {
  const t = useT();
  const keys = columns.map((column) => column.key);
  const toggleColumn = (key: string, isShown: boolean) => {
    const next = new Set(hiddenColumns);
    if (isShown) next.delete(key);
    else next.add(key);
    onHiddenColumnsChange(next);
  };
  const pinText = (pin: ColumnPin | undefined) => t(pin === 'left' ? 'resource.pinLeft' : pin === 'right' ? 'resource.pinRight' : 'resource.unpin');
  const columnList = (
    <div className="resource-column-settings" data-testid="column-settings">
      <Typography.Text type="secondary" className="resource-column-settings-hint">
        {t('resource.settingsHint')}
      </Typography.Text>
      {columns.map((column, position) => {
        const pin = pinned[column.key];
        // The pin button cycles none → left → right → none; its label says what it is now.
        return (
          <div key={column.key} className="resource-column-row" data-column={column.key}>
            <Checkbox checked={!hiddenColumns.has(column.key)} onChange={(event) => toggleColumn(column.key, event.target.checked)}>
              {column.title}
            </Checkbox>
            <Space size={0}>
              <Tooltip title={pinText(pin)}>
                <Button
                  type="text"
                  size="small"
                  aria-label={`${column.title}: ${pinText(pin)}`}
                  icon={pin ? <PushpinFilled rotate={pin === 'right' ? 90 : -90} /> : <PushpinOutlined />}
                  onClick={() => setPin(column.key, NEXT_PIN[pin ?? 'none'] ?? null)}
                />
              </Tooltip>
              <Button type="text" size="small" aria-label={`${column.title}: ${t('resource.columnUp')}`} icon={<ArrowUpOutlined />} disabled={position === 0} onClick={() => moveColumn(keys, column.key, -1)} />
              <Button
                type="text"
                size="small"
                aria-label={`${column.title}: ${t('resource.columnDown')}`}
                icon={<ArrowDownOutlined />}
                disabled={position === columns.length - 1}
                onClick={() => moveColumn(keys, column.key, 1)}
              />
            </Space>
          </div>
        );
      })}
      <Button type="link" size="small" onClick={() => void reset()}>
        {t('resource.columnsReset')}
      </Button>
    </div>
  );
  return (
    <Space size={4}>
      <RefreshButton onRefresh={onRefresh} isRefreshing={isRefreshing} />
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
          onClick: ({ key }) => onDensityChange(key as TableDensity),
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
