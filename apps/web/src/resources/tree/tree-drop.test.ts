import { describe, expect, it } from 'vitest';
import type { TreeRow } from '../shared/resource-api';
import { branchIdsOf, dropZoneAt, moveForDrop } from './tree-drop';

const node = (id: number, children?: TreeRow[]): TreeRow => ({ id, version: 1, ...(children ? { children } : {}) });
// 1 ─┬─ 2 ─── 4
//    └─ 3
// 5
const tree = [node(1, [node(2, [node(4)]), node(3)]), node(5)];

describe('moveForDrop', () => {
  it('puts a node before or after a sibling, counting positions without the node itself', () => {
    expect(moveForDrop(tree, 3, 2, 'before')).toEqual({ id: 3, parentId: 1, orderIndex: 0 });
    expect(moveForDrop(tree, 2, 3, 'after')).toEqual({ id: 2, parentId: 1, orderIndex: 1 });
    expect(moveForDrop(tree, 5, 1, 'before')).toEqual({ id: 5, parentId: null, orderIndex: 0 });
  });

  it('makes a node the last child of the row it is dropped into', () => {
    expect(moveForDrop(tree, 5, 2, 'inside')).toEqual({ id: 5, parentId: 2, orderIndex: 1 });
    expect(moveForDrop(tree, 4, 1, 'inside')).toEqual({ id: 4, parentId: 1, orderIndex: 2 });
  });

  it('offers no move onto itself, into its own subtree, or to where it already is', () => {
    expect(moveForDrop(tree, 1, 1, 'inside')).toBeNull();
    expect(moveForDrop(tree, 1, 4, 'inside')).toBeNull();
    expect(moveForDrop(tree, 1, 2, 'after')).toBeNull();
    expect(moveForDrop(tree, 2, 3, 'before')).toBeNull();
  });
});

describe('dropZoneAt', () => {
  it('splits a row into before, inside and after', () => {
    expect(dropZoneAt(2, 40)).toBe('before');
    expect(dropZoneAt(20, 40)).toBe('inside');
    expect(dropZoneAt(38, 40)).toBe('after');
  });
});

describe('branchIdsOf', () => {
  it('lists every node with children, at any depth', () => {
    expect(branchIdsOf(tree)).toEqual([1, 2]);
  });
});
