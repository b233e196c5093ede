import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { ALWAYS_ALLOWED_ROUTES, FRAME_BY_INDEX } from '@campus/contract';
import { isPageRegistered, pageOf } from '../../pages/registry';
import { readSession } from '../../lib/session';
import { STORAGE_KEYS, readSessionJson, writeSessionJson } from '../../lib/storage';
import { HOME_ROUTE, REDIRECT_ROUTE, REFRESH_ROUTE, pathSegments, type RouteDecision } from '../route-guard';
import { activeTabOf, persistableTabState, restoreTabState, tabReducer, type TabAction, type TabEntry, type TabState } from './tab-state';

function tabEntryOf(index: string, path: string): TabEntry | null {
  const page = pageOf(index);
  return page ? { index, title: page.frame.zh, path, componentName: page.componentName } : null;
}

const HOME_TAB = tabEntryOf(HOME_ROUTE, `/${HOME_ROUTE}`) as TabEntry;

/** Whether a saved tab may come back after a reload: the same test as the guard, minus sign-card mode. */
function isRestorable(index: string): boolean {
  if (!isPageRegistered(index)) return false;
  if ((ALWAYS_ALLOWED_ROUTES as readonly string[]).includes(index)) return true;
  const frame = FRAME_BY_INDEX.get(index);
  return Boolean(frame && readSession()?.frameIds.includes(frame.fixedId));
}

function initialTabState(): TabState {
  return restoreTabState(readSessionJson(STORAGE_KEYS.tabs, (value): value is unknown => value !== null), HOME_TAB, isRestorable);
}

export interface TabsController {
  state: TabState;
  activeTab: TabEntry;
  select: (index: string) => void;
  close: (index: string) => void;
  closeOthers: (index: string) => void;
  closeAll: () => void;
  refresh: (index: string) => void;
}

/**
 * Ties the pure tab reducer to the URL: the URL says which page is wanted (so links, back and
 * forward work), the reducer says which tabs exist. Closing a tab computes the next active tab
 * synchronously and navigates to it.
 */
export function useTabsController(decision: RouteDecision): TabsController {
  const location = useLocation();
  const navigate = useNavigate();
  const [state, setState] = useState(initialTabState);
  const stateRef = useRef(state);

  const apply = useCallback((action: TabAction): TabState => {
    const next = tabReducer(stateRef.current, action);
    stateRef.current = next;
    setState(next);
    return next;
  }, []);

  const goTo = useCallback(
    (before: TabState, after: TabState) => {
      if (after.activeIndex !== before.activeIndex) navigate(activeTabOf(after).path);
    },
    [navigate],
  );

  useEffect(() => {
    writeSessionJson(STORAGE_KEYS.tabs, persistableTabState(state));
  }, [state]);

  const allowedRoute = decision.action === 'allow' && decision.area === 'shell' ? decision.route : null;
  useEffect(() => {
    if (!allowedRoute) return;
    const segments = pathSegments(location.pathname);
    if (allowedRoute === REFRESH_ROUTE) {
      const active = activeTabOf(stateRef.current);
      apply({ type: 'refresh', index: active.index });
      navigate(active.path, { replace: true });
      return;
    }
    if (allowedRoute === REDIRECT_ROUTE) {
      // /redirect/<route...>: reload that route's tab if it is open, then show it.
      const target = `/${segments.slice(1).join('/')}${location.search}`;
      apply({ type: 'refresh', index: segments[1] ?? '' });
      navigate(target, { replace: true });
      return;
    }
    const entry = tabEntryOf(allowedRoute, `${location.pathname}${location.search}`);
    if (entry) apply({ type: 'open', tab: entry });
  }, [allowedRoute, location.pathname, location.search, apply, navigate]);

  const select = useCallback(
    (index: string) => {
      const tab = stateRef.current.tabs.find((candidate) => candidate.index === index);
      if (tab) navigate(tab.path);
    },
    [navigate],
  );
  const close = useCallback((index: string) => {
    const before = stateRef.current;
    goTo(before, apply({ type: 'close', index }));
  }, [apply, goTo]);
  const closeOthers = useCallback((index: string) => {
    const before = stateRef.current;
    goTo(before, apply({ type: 'closeOthers', index }));
  }, [apply, goTo]);
  const closeAll = useCallback(() => {
    const before = stateRef.current;
    goTo(before, apply({ type: 'closeAll' }));
  }, [apply, goTo]);
  // Stable, because every pane's context holds it: a new function would re-render every open page.
  const refresh = useCallback((index: string) => {
    apply({ type: 'refresh', index });
  }, [apply]);

  return useMemo(
    () => ({ state, activeTab: activeTabOf(state), select, close, closeOthers, closeAll, refresh }),
    [state, select, close, closeOthers, closeAll, refresh],
  );
}
