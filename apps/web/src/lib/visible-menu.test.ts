import { describe, expect, it } from 'vitest';
import type { NavigationFrame, NavigationGroup } from '@campus/contract';
import { buildVisibleMenu, groupOfFrame } from './visible-menu';

const frame = (fixedId: number, index: string, extra: Partial<NavigationFrame> = {}): NavigationFrame => ({
  fixedId,
  index,
  title: index,
  titleEn: index,
  sort: fixedId % 100,
  badge: null,
  authorised: true,
  buttons: [],
  ...extra,
});
const group = (id: number, children: NavigationFrame[]): NavigationGroup => ({ id, key: `g${id}`, title: `g${id}`, titleEn: `g${id}`, icon: 'home', children });

const tree = [
  group(1, [frame(102, 'systemView'), frame(101, 'index')]),
  group(6, [frame(602, 'codeManageA', { badge: 'licenseUnset' }), frame(601, 'equipmentManage', { badge: 'licenseUnset' })]),
  group(7, [frame(706, 'refundManage', { badge: 'refundApplied' })]),
];
const built = new Set(['index', 'codeManageA', 'equipmentManage', 'refundManage']);

describe('buildVisibleMenu', () => {
  it('keeps only built frames, in order, and hides groups left empty', () => {
    const menu = buildVisibleMenu(tree, { isPageRegistered: (index) => index !== 'refundManage' && built.has(index), signCardMode: true, badgeCounts: undefined });
    expect(menu.map((view) => view.group.id)).toEqual([1, 6]);
    expect(menu[0]?.items.map((item) => item.frame.index)).toEqual(['index']);
    expect(menu[1]?.items.map((item) => item.frame.index)).toEqual(['equipmentManage', 'codeManageA']);
  });

  it('hides the code-management frames while sign-card mode is off or unknown', () => {
    for (const signCardMode of [false, undefined]) {
      const menu = buildVisibleMenu(tree, { isPageRegistered: (index) => built.has(index), signCardMode, badgeCounts: undefined });
      expect(groupOfFrame(menu, 'codeManageA')).toBeUndefined();
      expect(groupOfFrame(menu, 'equipmentManage')?.group.id).toBe(6);
    }
  });

  it('puts the badge on items and their sum on the group, counting a key shown twice once', () => {
    const menu = buildVisibleMenu(tree, { isPageRegistered: (index) => built.has(index), signCardMode: true, badgeCounts: { licenseUnset: 3, refundApplied: 2 } });
    expect(menu[1]?.items.map((item) => item.badgeCount)).toEqual([3, 3]);
    expect(menu[1]?.badgeCount).toBe(3);
    expect(menu[2]?.badgeCount).toBe(2);
  });

  it('leaves out frames the caller is not authorised for', () => {
    const menu = buildVisibleMenu([group(7, [frame(706, 'refundManage', { authorised: false })])], {
      isPageRegistered: () => true,
      signCardMode: true,
      badgeCounts: undefined,
    });
    expect(menu).toEqual([]);
  });
});
