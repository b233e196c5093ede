import { CloseCircleOutlined, CloseOutlined, ColumnWidthOutlined, DownOutlined, ReloadOutlined } from '@ant-design/icons';
import { Button, Dropdown, Tabs, type MenuProps } from 'antd';
import { FRAME_BY_INDEX, TAB_STRIP_OFFSET } from '@campus/contract';
import { useWindowWidth } from '../../hooks/use-window-width';
import { localTitle, useLocale, useT } from '../../lib/i18n';
import { HOME_ROUTE } from '../route-guard';
import type { TabsController } from './use-tabs-controller';

type TabCommand = 'refresh' | 'close' | 'closeOthers' | 'closeAll';

function useTabMenu(index: string, tabs: TabsController): MenuProps {
  const t = useT();
  const isHome = index === HOME_ROUTE;
  const run: Record<TabCommand, () => void> = {
    refresh: () => tabs.refresh(index),
    close: () => tabs.close(index),
    closeOthers: () => tabs.closeOthers(index),
    closeAll: () => tabs.closeAll(),
  };
  return {
    items: [
      { key: 'refresh', icon: <ReloadOutlined />, label: t('tabs.refresh') },
      { key: 'close', icon: <CloseOutlined />, label: t('tabs.close'), disabled: isHome },
      { key: 'closeOthers', icon: <ColumnWidthOutlined />, label: t('tabs.closeOthers'), disabled: tabs.state.tabs.length <= (isHome ? 1 : 2) },
      { key: 'closeAll', icon: <CloseCircleOutlined />, label: t('tabs.closeAll'), disabled: tabs.state.tabs.length <= 1 },
    ],
    onClick: ({ key, domEvent }) => {
      domEvent.stopPropagation();
      run[key as TabCommand]();
    },
  };
}

/** A tab's label; right-click opens refresh / close / close others / close all for that tab. */
function TabLabel({ index, title, tabs }: { index: string; title: string; tabs: TabsController }) {
  const menu = useTabMenu(index, tabs);
  return (
    <Dropdown menu={menu} trigger={['contextMenu']}>
      <span className="tab-label" data-tab-label={index}>
        {title}
      </span>
    </Dropdown>
  );
}

/** The strip of open tabs; its width is the window width minus TAB_STRIP_OFFSET (SEED-SPEC section 9). */
export function TabStrip({ tabs }: { tabs: TabsController }) {
  const t = useT();
  const locale = useLocale();
  const width = useWindowWidth() - TAB_STRIP_OFFSET;
  const activeMenu = useTabMenu(tabs.activeTab.index, tabs);

  return (
    <div className="tab-strip" style={{ width }}>
      <Tabs
        type="editable-card"
        size="small"
        hideAdd
        activeKey={tabs.activeTab.index}
        onChange={tabs.select}
        onEdit={(key, action) => {
          if (action === 'remove' && typeof key === 'string') tabs.close(key);
        }}
        items={tabs.state.tabs.map((tab) => {
          const frame = FRAME_BY_INDEX.get(tab.index);
          return {
            key: tab.index,
            closable: tab.index !== HOME_ROUTE,
            label: <TabLabel index={tab.index} title={frame ? localTitle(frame, locale) : tab.title} tabs={tabs} />,
          };
        })}
        tabBarExtraContent={{
          right: (
            <Dropdown menu={activeMenu} trigger={['click']} placement="bottomRight">
              <Button type="text" size="small" icon={<DownOutlined />} aria-label={t('tabs.more')} className="tab-strip-more" />
            </Dropdown>
          ),
        }}
      />
    </div>
  );
}
