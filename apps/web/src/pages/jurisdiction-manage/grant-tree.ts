/**
 * The grant tree of jurisdictionManage as antd's checkable Tree sees it: group > frame > leaves.
 * Every frame has a "view" leaf (holding the frame without any button is a real grant: read-only)
 * and one leaf per button value. Only leaves are stored as checked; antd derives the tri-state of
 * frames and groups from them, and `checkStateOf` does the same for the counts shown beside them.
 */
import type { ButtonValue, GrantFrame, GrantTree } from '@campus/contract';
import type { MessageKey } from '../../lib/i18n';

export const viewKey = (frameId: number) => `v:${frameId}`;
export const buttonKey = (frameId: number, value: ButtonValue) => `b:${frameId}:${value}`;
export const frameKey = (frameId: number) => `f:${frameId}`;
export const groupKey = (groupId: number) => `g:${groupId}`;

type Leaf = { frameId: number; button: ButtonValue | null };

/** What a leaf key stands for; undefined for frame and group keys. */
export function parseLeaf(key: string): Leaf | undefined {
  const view = /^v:(\d+)$/.exec(key);
  if (view) return { frameId: Number(view[1]), button: null };
  const button = /^b:(\d+):(\w+)$/.exec(key);
  if (button) return { frameId: Number(button[1]), button: button[2] as ButtonValue };
  return undefined;
}

/** The checked leaves of a stored grant (unflatten). */
export function checkedLeavesOf(tree: GrantTree): Set<string> {
  const leaves = new Set<string>();
  for (const frame of tree.groups.flatMap((group) => group.frames)) {
    if (!frame.granted) continue;
    leaves.add(viewKey(frame.fixedId));
    for (const button of frame.buttons) if (button.granted) leaves.add(buttonKey(frame.fixedId, button.value));
  }
  return leaves;
}

/** The grant to save from the checked leaves (flatten): a frame is held when its view or any button is. */
export function grantFramesOf(leaves: Iterable<string>): GrantFrame[] {
  const frames = new Map<number, ButtonValue[]>();
  for (const key of leaves) {
    const leaf = parseLeaf(key);
    if (!leaf) continue;
    const buttons = frames.get(leaf.frameId) ?? [];
    if (leaf.button) buttons.push(leaf.button);
    frames.set(leaf.frameId, buttons);
  }
  return [...frames].sort(([a], [b]) => a - b).map(([frameId, buttons]) => ({ frameId, buttons: buttons.sort() }));
}

/**
 * Keeps the leaves consistent after a click: a button needs its frame, so ticking a button ticks
 * the frame's view; unticking the view of a frame drops its buttons. `locked` leaves (always-allowed
 * frames, what the caller may not grant) keep their previous state whatever antd reports.
 */
export function normaliseLeaves(previous: ReadonlySet<string>, next: Iterable<string>, locked: ReadonlySet<string> = new Set()): Set<string> {
  const result = new Set([...next].filter((key) => parseLeaf(key) && !locked.has(key)));
  for (const key of locked) if (previous.has(key)) result.add(key);
  for (const key of [...result]) {
    const leaf = parseLeaf(key)!;
    if (leaf.button && !previous.has(viewKey(leaf.frameId)) && !locked.has(viewKey(leaf.frameId))) result.add(viewKey(leaf.frameId));
  }
  for (const key of previous) {
    const leaf = parseLeaf(key)!;
    if (leaf.button === null && !result.has(key)) {
      for (const other of [...result]) if (parseLeaf(other)?.frameId === leaf.frameId && !locked.has(other)) result.delete(other);
    }
  }
  return result;
}

export type CheckState = 'checked' | 'indeterminate' | 'unchecked';

/** The tri-state of a node over its leaves: all checked, some, or none. */
export function checkStateOf(leafKeys: readonly string[], checked: ReadonlySet<string>): CheckState {
  const count = leafKeys.filter((key) => checked.has(key)).length;
  if (count === 0) return 'unchecked';
  return count === leafKeys.length ? 'checked' : 'indeterminate';
}

/** Leaf keys of every frame of the tree, by frame key and by group key. */
export function leavesByNode(tree: GrantTree): Map<string, string[]> {
  const byNode = new Map<string, string[]>();
  for (const group of tree.groups) {
    const groupLeaves: string[] = [];
    for (const frame of group.frames) {
      const leaves = [viewKey(frame.fixedId), ...frame.buttons.map((button) => buttonKey(frame.fixedId, button.value))];
      byNode.set(frameKey(frame.fixedId), leaves);
      groupLeaves.push(...leaves);
    }
    byNode.set(groupKey(group.id), groupLeaves);
  }
  return byNode;
}

/** Leaves the caller cannot change: always-allowed frames, and what it does not hold itself. */
export function lockedLeavesOf(tree: GrantTree): Set<string> {
  const locked = new Set<string>();
  for (const frame of tree.groups.flatMap((group) => group.frames)) {
    if (frame.isAlwaysAllowed || !frame.grantable) locked.add(viewKey(frame.fixedId));
    for (const button of frame.buttons) if (frame.isAlwaysAllowed || !button.grantable) locked.add(buttonKey(frame.fixedId, button.value));
  }
  return locked;
}

/** The message keys of the button values' names, for the tree's leaves. */
export const BUTTON_LABELS: Record<ButtonValue, MessageKey> = {
  add: 'button.add',
  update: 'button.update',
  delete: 'button.delete',
  export: 'button.export',
  enable: 'button.enable',
  examine: 'button.examine',
  refund: 'button.refund',
  send: 'button.send',
  hide: 'button.hide',
  show: 'button.show',
  state: 'button.state',
  print: 'button.print',
  close: 'button.close',
  password: 'button.password',
  grant: 'button.grant',
  adjust: 'button.adjust',
  import: 'button.import',
};
