/**
 * Keeps a list's filters, sort and page in the address bar, together with keep-alive tabs: each tab
 * remembers its own address (the tab strip stores `path` with the query), so the address shown is
 * always the active tab's. A list only writes the address while its tab is shown, and reads it back
 * when the address changes under it (back / forward, a link from the home page) — never an address
 * it wrote itself.
 */
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useTabPane } from '../../hooks/use-tab-pane';
import { listStateFromSearch, listStateToSearch, type ListUrlState } from './list-url';
import type { ResourceDef } from '@campus/contract';

/** The query string of this tab: the address bar's while shown, else the one the tab strip kept. */
function tabSearchOf(path: string | undefined, isActive: boolean, locationSearch: string): string {
  if (isActive || path === undefined) return locationSearch;
  const start = path.indexOf('?');
  return start === -1 ? '' : path.slice(start);
}

/**
 * The list state the page starts with: what its tab's address asks for, read once at mount (a
 * refresh of the tab remounts the page, and so keeps its filters). Null when the list does not
 * follow the address bar (lists in drawers, the second family of a page).
 */
export function useInitialListState(def: Pick<ResourceDef, 'fields'>, isEnabled: boolean, hiddenFields?: ReadonlySet<string>): ListUrlState | null {
  const pane = useTabPane();
  const location = useLocation();
  const [initial] = useState(() =>
    isEnabled && pane ? listStateFromSearch(def, tabSearchOf(pane.path, pane.isActive, location.search), hiddenFields) : null,
  );
  return initial;
}

interface AddressSync {
  isEnabled: boolean;
  def: Pick<ResourceDef, 'fields'>;
  hiddenFields?: ReadonlySet<string>;
  /** The list's state now. */
  state: ListUrlState;
  /** Applies a state the address asks for (the list's filters, page and sort, and its filter bar). */
  restore: (state: ListUrlState) => void;
}

/**
 * @example useListAddress({ isEnabled: true, def, state: list.addressState, restore: list.restore })
 */
export function useListAddress({ isEnabled, def, hiddenFields, state, restore }: AddressSync): void {
  const pane = useTabPane();
  const location = useLocation();
  const navigate = useNavigate();
  const search = listStateToSearch(state);
  // The query the list last wrote or read: an address equal to it is the list's own.
  const known = useRef(search);
  /**
   * Set while the list is being restored to an address just read: `from` is the list's query before,
   * `normal` the normal form of the address. Writing exactly `normal` replaces the entry (the same
   * list, tidied); anything else adds one. It is set only when the restore changes the list, so it is
   * consumed by the next write: a later search can never replace the entry back should return to.
   */
  const restoring = useRef<{ from: string; normal: string } | null>(null);
  const restoreRef = useRef(restore);
  restoreRef.current = restore;
  const isShown = isEnabled && pane !== null && pane.isActive && location.pathname === `/${pane.index}`;

  // The address changed under the list: back / forward, or a link to the page with other filters.
  // Checked after every commit, not on a change of the address: a navigation is a transition, and one
  // superseded before it commits (back pressed while the list's own write renders) leaves the committed
  // address as it was, while the address the list wrote (`known`) is no longer the one shown.
  useEffect(() => {
    if (!isShown || location.search === known.current) return;
    known.current = location.search;
    const read = listStateFromSearch(def, location.search, hiddenFields);
    const normal = listStateToSearch(read);
    // Already showing that list, the address only spells it differently (a shared link with extra
    // parameters): tidy it in place, so back does not return to the same list under another spelling.
    if (normal === search) {
      if (location.search !== normal) {
        known.current = normal;
        navigate(`${location.pathname}${normal}`, { replace: true });
      }
      return;
    }
    restoring.current = { from: search, normal };
    restoreRef.current(read);
  });

  // The list's state changed: write it to the address, as a new history entry (back undoes it).
  useEffect(() => {
    if (!isShown) return;
    // Run in the same commit as the read above: the restored state has not rendered yet.
    if (restoring.current?.from === search) return;
    const isNormalOfRead = restoring.current?.normal === search;
    restoring.current = null;
    if (search === location.search) return;
    if (location.search !== known.current) return;
    known.current = search;
    navigate(`${location.pathname}${search}`, { replace: isNormalOfRead });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [isShown, search]);
}
