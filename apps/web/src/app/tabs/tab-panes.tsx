import { Spin } from 'antd';
import { Suspense, memo, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { TabPaneContext, type TabPaneInfo } from '../../hooks/use-tab-pane';
import { pageOf } from '../../pages/registry';
import { PageErrorBoundary } from './page-error-boundary';
import { mountedTabIndexes, type TabEntry, type TabState } from './tab-state';

interface TabPaneProps {
  tab: TabEntry;
  isActive: boolean;
  remountKey: number;
  onRefresh: (index: string) => void;
  /** Scroll offsets by tab, kept here so a page that unmounts (beyond MAX_MOUNTED_TABS) comes back where it was. */
  scrollTops: Map<string, number>;
}

/**
 * One open tab's page. It stays mounted while hidden (display: none), so filters, page number and
 * unsaved input survive a tab switch. Each pane scrolls on its own; its offset is kept by hand
 * because browsers reset the scroll of an element while it is display: none.
 */
// Memoised: a tab switch re-renders the two panes whose visibility changed, not every open page.
const TabPane = memo(function TabPane({ tab, isActive, remountKey, onRefresh, scrollTops }: TabPaneProps) {
  const page = pageOf(tab.index);
  const paneRef = useRef<HTMLDivElement>(null);

  useLayoutEffect(() => {
    if (isActive && paneRef.current) paneRef.current.scrollTop = scrollTops.get(tab.index) ?? 0;
  }, [isActive, scrollTops, tab.index]);

  const info = useMemo<TabPaneInfo>(
    () => ({ index: tab.index, path: tab.path, isActive, refresh: () => onRefresh(tab.index) }),
    [tab.index, tab.path, isActive, onRefresh],
  );

  if (!page) return null;
  const { Component } = page;
  return (
    <div
      ref={paneRef}
      className="tab-pane"
      data-tab={tab.index}
      style={isActive ? undefined : { display: 'none' }}
      onScroll={(event) => {
        if (isActive) scrollTops.set(tab.index, event.currentTarget.scrollTop);
      }}
    >
      <TabPaneContext.Provider value={info}>
        <PageErrorBoundary key={remountKey} onRetry={info.refresh}>
          <Suspense
            fallback={
              <div className="tab-pane-loading">
                <Spin />
              </div>
            }
          >
            <Component />
          </Suspense>
        </PageErrorBoundary>
      </TabPaneContext.Provider>
    </div>
  );
});

/** The pages of the open tabs: the recently shown ones mounted (hidden but alive), the others only remembered. */
export function TabPanes({ state, onRefresh }: { state: TabState; onRefresh: (index: string) => void }) {
  const [scrollTops] = useState(() => new Map<string, number>());
  const mounted = mountedTabIndexes(state);
  return (
    <>
      {state.tabs
        .filter((tab) => mounted.has(tab.index))
        .map((tab) => (
          <TabPane
            key={tab.index}
            tab={tab}
            isActive={tab.index === state.activeIndex}
            remountKey={state.remountKeys[tab.index] ?? 0}
            onRefresh={onRefresh}
            scrollTops={scrollTops}
          />
        ))}
    </>
  );
}
