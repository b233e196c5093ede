import { useCallback, useEffect, useState } from 'react';
import { STORAGE_KEYS, isRecord, readSessionJson, writeSessionJson } from '../../lib/storage';
import { groupOfFrame, type MenuGroupView } from '../../lib/visible-menu';

/** The selected group and frame, kept across reloads (SEED-SPEC section 4). */
export interface MenuSelection {
  groupId: number | null;
  frameId: number | null;
}

function isMenuSelection(value: unknown): value is MenuSelection {
  return isRecord(value) && (value.groupId === null || typeof value.groupId === 'number') && (value.frameId === null || typeof value.frameId === 'number');
}

/**
 * Which group's second-level menu is shown. Clicking a group only switches the list; opening a
 * page (by menu, link, or back/forward) moves the selection to that page's group.
 */
export function useMenuSelection(menu: readonly MenuGroupView[], activeIndex: string) {
  const [selection, setSelection] = useState<MenuSelection>(() => readSessionJson(STORAGE_KEYS.menuSelection, isMenuSelection) ?? { groupId: null, frameId: null });

  useEffect(() => {
    writeSessionJson(STORAGE_KEYS.menuSelection, selection);
  }, [selection]);

  useEffect(() => {
    const view = groupOfFrame(menu, activeIndex);
    const frame = view?.items.find((item) => item.frame.index === activeIndex)?.frame;
    if (!view || !frame) return;
    setSelection((current) => (current.frameId === frame.fixedId ? current : { groupId: view.group.id, frameId: frame.fixedId }));
  }, [menu, activeIndex]);

  const selectGroup = useCallback((groupId: number) => setSelection((current) => ({ ...current, groupId })), []);

  // A stored group that is no longer visible (grant changed) falls back to the first one.
  const selectedGroup = menu.find((view) => view.group.id === selection.groupId) ?? menu[0];
  return { selectedGroup, selectGroup };
}
