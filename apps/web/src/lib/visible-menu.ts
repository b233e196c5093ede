import { SIGN_CARD_MODE_ROUTES, type BadgeCounts, type NavigationFrame, type NavigationGroup } from '@campus/contract';

export interface MenuItemView {
  frame: NavigationFrame;
  badgeCount: number;
}

export interface MenuGroupView {
  group: NavigationGroup;
  items: MenuItemView[];
  /** Sum of its items' badges, each badge key counted once (two pages may show the same pending work). */
  badgeCount: number;
}

export interface MenuFilter {
  isPageRegistered: (index: string) => boolean;
  signCardMode: boolean | undefined;
  badgeCounts: BadgeCounts | undefined;
}

/** A frame shows in the menu only when the route guard would let the user open it. */
export function isFrameVisible(frame: NavigationFrame, filter: Pick<MenuFilter, 'isPageRegistered' | 'signCardMode'>): boolean {
  if (!frame.authorised || !filter.isPageRegistered(frame.index)) return false;
  if ((SIGN_CARD_MODE_ROUTES as readonly string[]).includes(frame.index)) return filter.signCardMode === true;
  return true;
}

export function badgeCountOf(frame: NavigationFrame, badgeCounts: BadgeCounts | undefined): number {
  return frame.badge && badgeCounts ? (badgeCounts[frame.badge] ?? 0) : 0;
}

/** The menu as drawn: visible frames in order, groups with none left out, badges summed per group. */
export function buildVisibleMenu(tree: readonly NavigationGroup[], filter: MenuFilter): MenuGroupView[] {
  return tree
    .map((group) => {
      const items = group.children
        .filter((frame) => isFrameVisible(frame, filter))
        .sort((a, b) => a.sort - b.sort)
        .map((frame) => ({ frame, badgeCount: badgeCountOf(frame, filter.badgeCounts) }));
      const perKey = new Map(items.filter((item) => item.frame.badge).map((item) => [item.frame.badge, item.badgeCount]));
      return { group, items, badgeCount: [...perKey.values()].reduce((sum, count) => sum + count, 0) };
    })
    .filter((view) => view.items.length > 0);
}

export function groupOfFrame(menu: readonly MenuGroupView[], index: string): MenuGroupView | undefined {
  return menu.find((view) => view.items.some((item) => item.frame.index === index));
}
