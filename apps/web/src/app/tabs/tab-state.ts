import { isRecord } from '../../lib/storage';

/** One open tab (SEED-SPEC section 3). `title` is the product's (zh) title; the strip shows the current language's. */
export interface TabEntry {
  index: string;
  title: string;
  path: string;
  componentName: string;
}

export interface TabState {
  tabs: TabEntry[];
  activeIndex: string;
  /** Bumped by "refresh": the tab's page remounts under a new key, the others stay as they are. */
  remountKeys: Record<string, number>;
  /** Open tabs, most recently shown first: the ones whose pages stay mounted (mountedTabIndexes). */
  recent: string[];
}

/**
 * How many tabs keep their page mounted while hidden. A mounted page holds its whole tree: 65 open
 * tabs held 33,000 DOM nodes and 738 MB of JS heap, and made a list that drew in 1.2 s take 6.2 s.
 * Beyond these, a hidden tab keeps only its address (filters, sort, page live there) and its page
 * mounts again from it when the tab is shown.
 */
export const MAX_MOUNTED_TABS = 8;

export type TabAction =
  | { type: 'open'; tab: TabEntry }
  | { type: 'close'; index: string }
  | { type: 'closeOthers'; index: string }
  | { type: 'closeAll' }
  | { type: 'refresh'; index: string };

export function createTabState(home: TabEntry): TabState {
  return { tabs: [home], activeIndex: home.index, remountKeys: {}, recent: [home.index] };
}

/** `index` first, then the others in their order. */
const shownFirst = (recent: readonly string[], index: string) => [index, ...recent.filter((one) => one !== index)];

/** The tabs whose pages are mounted: the active one and the most recently shown others, at most `limit`. */
export function mountedTabIndexes(state: TabState, limit = MAX_MOUNTED_TABS): Set<string> {
  return new Set(shownFirst(state.recent, state.activeIndex).slice(0, limit));
}

function withoutKey(keys: Record<string, number>, index: string): Record<string, number> {
  if (!(index in keys)) return keys;
  const rest = { ...keys };
  delete rest[index];
  return rest;
}

/**
 * The tab transitions of SEED-SPEC section 4. The first tab is the home tab: always there, never closed.
 * - open: adds a tab once (a second open only activates it, updating its path);
 * - close the active tab: the next tab becomes active, else the previous one, else home;
 * - close others: keeps home and the given tab; close all: keeps home;
 * - refresh: remounts the tab's page.
 */
export function tabReducer(state: TabState, action: TabAction): TabState {
  const home = state.tabs[0];
  switch (action.type) {
    case 'open': {
      const existing = state.tabs.find((tab) => tab.index === action.tab.index);
      if (existing) {
        const tabs = existing.path === action.tab.path ? state.tabs : state.tabs.map((tab) => (tab === existing ? { ...tab, path: action.tab.path } : tab));
        if (tabs === state.tabs && state.activeIndex === existing.index) return state;
        return { ...state, tabs, activeIndex: existing.index, recent: shownFirst(state.recent, existing.index) };
      }
      return { ...state, tabs: [...state.tabs, action.tab], activeIndex: action.tab.index, recent: shownFirst(state.recent, action.tab.index) };
    }
    case 'close': {
      const position = state.tabs.findIndex((tab) => tab.index === action.index);
      if (position <= 0) return state; // not open, or the home tab
      const tabs = state.tabs.filter((_, i) => i !== position);
      const activeIndex =
        state.activeIndex === action.index ? (tabs[position] ?? tabs[position - 1] ?? home)?.index ?? state.activeIndex : state.activeIndex;
      const recent = state.recent.filter((index) => index !== action.index);
      return { tabs, activeIndex, remountKeys: withoutKey(state.remountKeys, action.index), recent: shownFirst(recent, activeIndex) };
    }
    case 'closeOthers': {
      const kept = state.tabs.find((tab) => tab.index === action.index);
      if (!kept || !home) return state;
      const tabs = kept === home ? [home] : [home, kept];
      const remountKeys = Object.fromEntries(Object.entries(state.remountKeys).filter(([index]) => tabs.some((tab) => tab.index === index)));
      return { tabs, activeIndex: kept.index, remountKeys, recent: shownFirst([home.index], kept.index) };
    }
    case 'closeAll': {
      if (!home) return state;
      return { tabs: [home], activeIndex: home.index, remountKeys: withoutKey({}, home.index), recent: [home.index] };
    }
    case 'refresh': {
      if (!state.tabs.some((tab) => tab.index === action.index)) return state;
      return { ...state, remountKeys: { ...state.remountKeys, [action.index]: (state.remountKeys[action.index] ?? 0) + 1 } };
    }
  }
}

export function activeTabOf(state: TabState): TabEntry {
  // The home tab is always there, so the fallback never leaves the strip without an active tab.
  return state.tabs.find((tab) => tab.index === state.activeIndex) ?? (state.tabs[0] as TabEntry);
}

function isTabEntry(value: unknown): value is TabEntry {
  return (
    isRecord(value) &&
    typeof value.index === 'string' &&
    typeof value.title === 'string' &&
    typeof value.path === 'string' &&
    typeof value.componentName === 'string'
  );
}

/**
 * Rebuilds the tab state saved before a reload. Tabs the user may no longer open (grant changed,
 * page removed) are dropped, and the home tab is put back first whatever was stored.
 */
export function restoreTabState(saved: unknown, home: TabEntry, isOpenable: (index: string) => boolean): TabState {
  if (!isRecord(saved) || !Array.isArray(saved.tabs)) return createTabState(home);
  const tabs = [home];
  for (const tab of saved.tabs) {
    if (isTabEntry(tab) && tab.index !== home.index && isOpenable(tab.index) && !tabs.some((open) => open.index === tab.index)) tabs.push(tab);
  }
  const activeIndex = typeof saved.activeIndex === 'string' && tabs.some((tab) => tab.index === saved.activeIndex) ? saved.activeIndex : home.index;
  // After a reload only the shown tab mounts; the others mount when shown.
  return { tabs, activeIndex, remountKeys: {}, recent: [activeIndex] };
}

/** What is worth keeping across a reload: remount keys only matter within one page life. */
export function persistableTabState(state: TabState): { tabs: TabEntry[]; activeIndex: string } {
  return { tabs: state.tabs, activeIndex: state.activeIndex };
}
