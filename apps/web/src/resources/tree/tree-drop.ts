/** Where a row dragged onto another row of a tree table goes: the Move call's parent and position. */
import type { TreeRow } from '../shared/resource-api';

/** The part of the target row the pointer is over: its upper quarter, lower quarter, or middle. */
export type DropZone = 'before' | 'after' | 'inside';

/** The zone of a pointer at `offsetY` pixels into a row `height` pixels tall. */
export function dropZoneAt(offsetY: number, height: number): DropZone {
  if (offsetY < height / 4) return 'before';
  if (offsetY > (height * 3) / 4) return 'after';
  return 'inside';
}

interface Located {
  node: TreeRow;
  parentId: number | null;
  siblings: TreeRow[];
}

function locate(nodes: TreeRow[], id: number, parentId: number | null = null): Located | undefined {
  for (const node of nodes) {
    if (node.id === id) return { node, parentId, siblings: nodes };
    const found = locate(node.children ?? [], id, node.id);
    if (found) return found;
  }
  return undefined;
}

function contains(node: TreeRow, id: number): boolean {
  return (node.children ?? []).some((child) => child.id === id || contains(child, id));
}

/**
 * The Move body for dropping `draggedId` on `targetId` in `zone`, or null when the drop changes
 * nothing or would put a node under itself (the server refuses that too).
 */
export function moveForDrop(tree: TreeRow[], draggedId: number, targetId: number, zone: DropZone): { id: number; parentId: number | null; orderIndex: number } | null {
  const dragged = locate(tree, draggedId);
  const target = locate(tree, targetId);
  if (!dragged || !target || draggedId === targetId || contains(dragged.node, targetId)) return null;
  if (zone === 'inside') return { id: draggedId, parentId: targetId, orderIndex: target.node.children?.length ?? 0 };
  // Positions count the siblings without the dragged node, as the server renumbers them.
  const others = target.siblings.filter((sibling) => sibling.id !== draggedId);
  const at = others.findIndex((sibling) => sibling.id === targetId) + (zone === 'after' ? 1 : 0);
  const unchanged = dragged.parentId === target.parentId && dragged.siblings.findIndex((sibling) => sibling.id === draggedId) === at;
  return unchanged ? null : { id: draggedId, parentId: target.parentId, orderIndex: at };
}

/** The ids of every node that has children: what "expand all" opens. */
export function branchIdsOf(nodes: TreeRow[]): number[] {
  return nodes.flatMap((node) => (node.children?.length ? [node.id, ...branchIdsOf(node.children)] : []));
}
