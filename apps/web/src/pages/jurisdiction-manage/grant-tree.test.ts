import type { GrantTree } from '@campus/contract';
import { describe, expect, it } from 'vitest';
import {
  buttonKey,
  checkStateOf,
  checkedLeavesOf,
  frameKey,
  grantFramesOf,
  groupKey,
  leavesByNode,
  lockedLeavesOf,
  normaliseLeaves,
  parseLeaf,
  viewKey,
} from './grant-tree';

/** A two-group tree: Home (index, always allowed) and Sales (schoolManage with three buttons, salesTeam). */
function treeOf(overrides: { schoolButtons?: string[]; salesTeam?: boolean; grantable?: boolean } = {}): GrantTree {
  const held = new Set(overrides.schoolButtons ?? ['add', 'export']);
  return {
    userType: 'agent',
    user: null,
    isOverride: false,
    groups: [
      {
        id: 1,
        key: 'home',
        title: '首页',
        titleEn: 'Home',
        frames: [{ fixedId: 101, index: 'index', title: '首页', titleEn: 'Home', granted: true, grantable: false, isAlwaysAllowed: true, buttons: [] }],
      },
      {
        id: 3,
        key: 'sales',
        title: '销售',
        titleEn: 'Sales',
        frames: [
          {
            fixedId: 301,
            index: 'schoolManage',
            title: '学校管理',
            titleEn: 'Schools',
            granted: true,
            grantable: true,
            isAlwaysAllowed: false,
            buttons: (['add', 'delete', 'export'] as const).map((value) => ({
              value,
              granted: held.has(value),
              grantable: overrides.grantable !== false || value !== 'delete',
            })),
          },
          {
            fixedId: 302,
            index: 'salesTeam',
            title: '销售团队',
            titleEn: 'Sales teams',
            granted: overrides.salesTeam ?? false,
            grantable: true,
            isAlwaysAllowed: false,
            buttons: [{ value: 'export', granted: false, grantable: true }],
          },
        ],
      },
    ],
  };
}

describe('grant tree: flatten and unflatten', () => {
  it('unflattens a stored grant into view and button leaves', () => {
    expect([...checkedLeavesOf(treeOf())].sort()).toEqual([buttonKey(301, 'add'), buttonKey(301, 'export'), viewKey(101), viewKey(301)].sort());
  });

  it('keeps a frame held without any button (read-only) through a round trip', () => {
    const leaves = checkedLeavesOf(treeOf({ schoolButtons: [], salesTeam: true }));
    expect(grantFramesOf(leaves)).toEqual([
      { frameId: 101, buttons: [] },
      { frameId: 301, buttons: [] },
      { frameId: 302, buttons: [] },
    ]);
  });

  it('flattens leaves into frames with sorted buttons, a button alone implying its frame', () => {
    expect(grantFramesOf([buttonKey(301, 'export'), buttonKey(301, 'add'), viewKey(302), frameKey(301), groupKey(3)])).toEqual([
      { frameId: 301, buttons: ['add', 'export'] },
      { frameId: 302, buttons: [] },
    ]);
  });

  it('parses only leaf keys', () => {
    expect(parseLeaf(viewKey(301))).toEqual({ frameId: 301, button: null });
    expect(parseLeaf(buttonKey(301, 'delete'))).toEqual({ frameId: 301, button: 'delete' });
    expect(parseLeaf(frameKey(301))).toBeUndefined();
    expect(parseLeaf(groupKey(3))).toBeUndefined();
  });
});

describe('grant tree: tri-state', () => {
  it('derives checked, indeterminate and unchecked for frames and groups from their leaves', () => {
    const tree = treeOf();
    const byNode = leavesByNode(tree);
    const checked = checkedLeavesOf(tree);
    expect(checkStateOf(byNode.get(frameKey(101))!, checked)).toBe('checked');
    expect(checkStateOf(byNode.get(frameKey(301))!, checked)).toBe('indeterminate');
    expect(checkStateOf(byNode.get(frameKey(302))!, checked)).toBe('unchecked');
    expect(checkStateOf(byNode.get(groupKey(3))!, checked)).toBe('indeterminate');
    const all = new Set([...checked, buttonKey(301, 'delete'), viewKey(302), buttonKey(302, 'export')]);
    expect(checkStateOf(byNode.get(groupKey(3))!, all)).toBe('checked');
  });
});

describe('grant tree: keeping the leaves consistent', () => {
  it('ticks the frame when one of its buttons is ticked', () => {
    const next = normaliseLeaves(new Set([viewKey(101)]), [viewKey(101), buttonKey(302, 'export')]);
    expect(next).toEqual(new Set([viewKey(101), viewKey(302), buttonKey(302, 'export')]));
  });

  it("drops a frame's buttons when its view is unticked", () => {
    const previous = checkedLeavesOf(treeOf());
    const next = normaliseLeaves(previous, [...previous].filter((leaf) => leaf !== viewKey(301)));
    expect(next).toEqual(new Set([viewKey(101)]));
  });

  it('ignores parent keys antd reports and keeps locked leaves as they were', () => {
    const tree = treeOf({ grantable: false });
    const locked = lockedLeavesOf(tree);
    expect(locked).toEqual(new Set([viewKey(101), buttonKey(301, 'delete')]));
    const previous = checkedLeavesOf(tree);
    // A click on the frame checks every child, locked ones included, and reports the frame key too.
    const next = normaliseLeaves(previous, [frameKey(301), viewKey(301), buttonKey(301, 'add'), buttonKey(301, 'delete'), buttonKey(301, 'export')], locked);
    expect(next).toEqual(new Set([viewKey(101), viewKey(301), buttonKey(301, 'add'), buttonKey(301, 'export')]));
  });
});
