import { CloseCircleOutlined, CloseOutlined, ColumnWidthOutlined, DownOutlined, ReloadOutlined } from '@ant-design/icons';
import { Button, Dropdown, Tabs, type MenuProps } from 'antd';
import type { KeyboardEvent } from 'react';
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
      // How many are open: past the strip's width most tabs sit behind its overflow menu.
      { key: 'count', label: t('tabs.openCount', { count: tabs.state.tabs.length }), disabled: true },
      { type: 'divider' },
      { key: 'refresh', icon: <ReloadOutlined />, label: t('tabs.refresh') },
      { key: 'close', icon: <CloseOutlined />, label: t('tabs.close'), disabled: isHome },
      { key: 'closeOthers', icon: <ColumnWidthOutlined />, label: t('tabs.closeOthers'), disabled: tabs.state.tabs.length <= (isHome ? 1 : 2) },
      { key: 'closeAll', icon: <CloseCircleOutlined />, label: t('tabs.closeAll'), disabled: tabs.state.tabs.length <= 1 },
    ],
    onClick: ({ key, domEvent }) => {
      domEvent.stopPropagation();
      if (key in run) run[key as TabCommand]();
    },
  };
}

/**
 * A tab's label; right-click opens refresh / close / close others / close all for that tab. The close
 * cross is drawn here, not by antd: antd's is a button beside the tab inside the tab list, which may
 * hold nothing but tabs (WAI-ARIA), so this one is for the mouse and the keyboard closes the focused
 * tab with Delete (TabStrip) or through the strip's tab menu.
 */
function TabLabel({ index, title, tabs }: { index: string; title: string; tabs: TabsController }) {
  const menu = useTabMenu(index, tabs);
  return (
    <Dropdown menu={menu} trigger={['contextMenu']}>
      <span className="tab-label" data-tab-label={index}>
        {title}
        {index !== HOME_ROUTE && (
          <span
            className="tab-close"
            aria-hidden="true"
            onClick={(event) => {
              event.stopPropagation();
              tabs.close(index);
            }}
          >
            <CloseOutlined />
          </span>
        )}
      </span>
    </Dropdown>
  );
}

/**
 * The home tab, pinned before the scrolling list: with many tabs open the list scrolls to the active
 * one and the home tab would scroll out of reach. Drawn with the strip's own tab classes so it looks
 * and reads (role tab, selected) like the others.
 */
function PinnedHomeTab({ tabs, title }: { tabs: TabsController; title: string }) {
  const isActive = tabs.activeTab.index === HOME_ROUTE;
  return (
    <div
      role="tab"
      aria-selected={isActive}
      tabIndex={0}
      className={`ant-tabs-tab tab-strip-home${isActive ? ' ant-tabs-tab-active' : ''}`}
      onClick={() => tabs.select(HOME_ROUTE)}
      onKeyDown={(event) => {
        if (event.key === 'Enter' || event.key === ' ') {
          event.preventDefault();
          tabs.select(HOME_ROUTE);
        }
      }}
    >
      <div className="ant-tabs-tab-btn">
        <TabLabel index={HOME_ROUTE} title={title} tabs={tabs} />
      </div>
    </div>
  );
}

/** Delete or Backspace on a focused tab closes it, as antd's own closable tabs allow. */
function closeFocusedTab(event: KeyboardEvent<HTMLDivElement>, tabs: TabsController): void {
  if (event.key !== 'Delete' && event.key !== 'Backspace') return;
  const target = event.target as HTMLElement;
  if (target.getAttribute('role') !== 'tab') return;
  const index = target.closest('[data-node-key]')?.getAttribute('data-node-key');
  if (!index || index === HOME_ROUTE) return;
  event.preventDefault();
  tabs.close(index);
}

/** The strip of open tabs; its width is the window width minus TAB_STRIP_OFFSET (SEED-SPEC section 9). */
export function TabStrip({ tabs }: { tabs: TabsController }) {
  const t = useT();
  const locale = useLocale();
  const width = useWindowWidth() - TAB_STRIP_OFFSET;
  const activeMenu = useTabMenu(tabs.activeTab.index, tabs);
  const titleOf = (index: string, fallback: string) => {
    const frame = FRAME_BY_INDEX.get(index);
    return frame ? localTitle(frame, locale) : fallback;
  };
  const home = tabs.state.tabs[0];

  return (
    <div className="tab-strip" style={{ width }} onKeyDown={(event) => closeFocusedTab(event, tabs)}>
      <Tabs
        type="editable-card"
        size="small"
        hideAdd
        activeKey={tabs.activeTab.index}
        onChange={tabs.select}
        items={tabs.state.tabs
          .filter((tab) => tab.index !== HOME_ROUTE)
          .map((tab) => ({ key: tab.index, closable: false, label: <TabLabel index={tab.index} title={titleOf(tab.index, tab.title)} tabs={tabs} /> }))}
        tabBarExtraContent={{ left: home ? <PinnedHomeTab tabs={tabs} title={titleOf(home.index, home.title)} /> : null }}
      />
      {/* Beside the tab list, not in it (antd's tabBarExtraContent): a tab list holds only tabs. */}
      <Dropdown menu={activeMenu} trigger={['click']} placement="bottomRight">
        <Button type="text" size="small" icon={<DownOutlined />} aria-label={t('tabs.more')} className="tab-strip-more" />
      </Dropdown>
    </div>
  );
}
