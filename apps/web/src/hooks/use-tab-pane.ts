import { createContext, useContext } from 'react';

/** What a page knows about the tab it lives in; pages stay mounted while hidden (keep-alive). */
export interface TabPaneInfo {
  /** Route name of the tab = its frame's `index`. */
  index: string;
  path: string;
  /** False while another tab is shown: pause polling, skip measuring. */
  isActive: boolean;
  /** Remounts this tab's page only. */
  refresh: () => void;
}

export const TabPaneContext = createContext<TabPaneInfo | null>(null);

/** The enclosing tab, or null outside the shell (public pages). */
export function useTabPane(): TabPaneInfo | null {
  return useContext(TabPaneContext);
}
