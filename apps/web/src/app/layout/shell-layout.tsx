import { useCallback, useEffect, useMemo, useState } from 'react';
import { Navigate } from 'react-router';
import { FRAME_BY_INDEX, MENU_FETCH_DELAY_MS } from '@campus/contract';
import { useDelayedFlag } from '../../hooks/use-delayed-flag';
import { useOpenPage } from '../../hooks/use-open-page';
import { localTitle, useLocale, useT } from '../../lib/i18n';
import { isPageRegistered } from '../../pages/registry';
import { useBadgeCounts, useNavigationTree, useSignCardMode } from '../../hooks/use-navigation';
import { useMenuSelection } from '../navigation/use-menu-selection';
import { buildVisibleMenu } from '../../lib/visible-menu';
import type { RouteDecision } from '../route-guard';
import { TabPanes } from '../tabs/tab-panes';
import { TabStrip } from '../tabs/tab-strip';
import { useTabsController } from '../tabs/use-tabs-controller';
import { LanguageSwitch } from '../../components/language-switch';
import { SidePanel } from './side-panel';
import { UserMenu } from './user-menu';
import './shell.css';

/** The browser tab names the page being looked at, so several console windows can be told apart. */
function useDocumentTitle(activeIndex: string) {
  const t = useT();
  const locale = useLocale();
  useEffect(() => {
    const frame = FRAME_BY_INDEX.get(activeIndex);
    document.title = frame ? `${localTitle(frame, locale)} · ${t('app.name')}` : t('app.name');
  }, [activeIndex, locale, t]);
}

const SIDE_COLLAPSED_KEY = 'campus-ops-side-collapsed';

/** Whether the side panel is collapsed: a choice of this browser's screen, kept across reloads. */
function useSideCollapsed(): [boolean, (isCollapsed: boolean) => void] {
  const [isCollapsed, setCollapsed] = useState(() => {
    try {
      return window.localStorage.getItem(SIDE_COLLAPSED_KEY) === '1';
    } catch {
      return false; // storage refused (privacy mode): start expanded
    }
  });
  const change = useCallback((next: boolean) => {
    setCollapsed(next);
    try {
      window.localStorage.setItem(SIDE_COLLAPSED_KEY, next ? '1' : '0');
    } catch {
      // Not kept across reloads then; the panel still collapses.
    }
  }, []);
  return [isCollapsed, change];
}

/**
 * The logged-in console: side panel, header with the tab strip, and the open tabs' pages. It stays
 * mounted for the whole session; a route the guard refuses navigates away without unmounting it,
 * so no open tab loses its state.
 */
export function ShellLayout({ decision }: { decision: RouteDecision }) {
  const tabs = useTabsController(decision);
  const openPage = useOpenPage();
  const isMenuDue = useDelayedFlag(MENU_FETCH_DELAY_MS);
  const tree = useNavigationTree(isMenuDue);
  // Badges come after the menu (a fetched tree, not the stored first paint).
  const badges = useBadgeCounts(tree.isFetchedAfterMount && tree.isSuccess);
  const signCardMode = useSignCardMode();

  const menu = useMemo(
    () => buildVisibleMenu(tree.data ?? [], { isPageRegistered, signCardMode, badgeCounts: badges.data }),
    [tree.data, signCardMode, badges.data],
  );
  const { selectedGroup, selectGroup } = useMenuSelection(menu, tabs.activeTab.index);
  const [isSideCollapsed, setSideCollapsed] = useSideCollapsed();
  useDocumentTitle(tabs.activeTab.index);

  return (
    <div className="shell">
      <SidePanel
        menu={menu}
        isLoading={tree.isPending || tree.isFetching}
        selectedGroup={selectedGroup}
        onSelectGroup={selectGroup}
        activeIndex={tabs.activeTab.index}
        isCollapsed={isSideCollapsed}
        onCollapsedChange={setSideCollapsed}
        // An open tab is shown as it was left (its filters in its address), not opened afresh.
        onOpenFrame={(index) => (tabs.state.tabs.some((tab) => tab.index === index) ? tabs.select(index) : openPage(index))}
      />
      <div className="shell-main">
        <header className="shell-header">
          <TabStrip tabs={tabs} />
          <div className="shell-header-actions">
            <LanguageSwitch compact />
            <UserMenu />
          </div>
        </header>
        <main className="shell-content">
          <TabPanes state={tabs.state} onRefresh={tabs.refresh} />
        </main>
      </div>
      {decision.action === 'redirect' && <Navigate to={decision.to} replace />}
    </div>
  );
}
