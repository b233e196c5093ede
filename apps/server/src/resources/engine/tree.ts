/**
 * Tree families (`tree: { parentField, orderField, cascade? }`): a node sits under a parent (null =
 * a root) at a position among its siblings. Add puts a node last; Move re-parents and renumbers in
 * one transaction and refuses a cycle; delete refuses a node with children unless the family
 * declares `cascade`; the whole tree is read nested.
 */
import { columnName, type TreeDef } from '@campus/contract';
import { and, asc, eq, inArray, isNull, ne, sql, type SQL } from 'drizzle-orm';
import { intArray } from '../../platform/sql-terms.js';
import { badRequest, msg } from '../../platform/errors.js';
import type { EngineContext, Row } from './context.js';
import { valueAfter } from './lookup.js';
import { columnOf } from './query.js';
import { tableOf } from './registry.js';
import type { Executor } from '../../db/client.js';

/** A node of the nested tree answer: the row in wire form and its children, in order. */
export type TreeNode = Row & { children?: TreeNode[] };

/** The most nodes one Tree answer holds: a directory tree is a catalogue, not a log. */
export const TREE_NODE_CAP = 5000;

function treeOf(ctx: Pick<EngineContext, 'def'>): TreeDef {
  if (!ctx.def.tree) throw new Error(`${ctx.def.name} is not a tree`);
  return ctx.def.tree;
}

/** The tree's declaration with its table and the id, parent and order columns. */
export function treeColumns(ctx: Pick<EngineContext, 'def'>) {
  const tree = treeOf(ctx);
  const table = tableOf(ctx.def);
  return { tree, table, id: columnOf(table, 'id'), parent: columnOf(table, tree.parentField), order: columnOf(table, tree.orderField) };
}

const isUnder = (parent: ReturnType<typeof treeColumns>['parent'], parentId: number | null): SQL => (parentId === null ? isNull(parent) : eq(parent, parentId));

/** The ids of `from` and all its ancestors, as an SQL list (one recursive query). */
function ancestorsOf(ctx: Pick<EngineContext, 'def'>, from: number): SQL {
  const table = sql.identifier(ctx.def.table);
  const parent = sql.identifier(columnName(treeOf(ctx).parentField));
  return sql`(with recursive up(id, parent) as (select id, ${parent} from ${table} where id = ${from} union all select n.id, n.${parent} from ${table} n join up on n.id = up.parent) select id from up)`;
}

/** The ids of the subtrees under `roots` (roots included), with their parents (one recursive query). */
async function subtreesOf(ctx: EngineContext, db: Executor, roots: number[]): Promise<{ id: number; parent: number | null }[]> {
  const { table, id, parent } = treeColumns(ctx);
  const name = sql.identifier(ctx.def.table);
  const parentName = sql.identifier(columnName(treeOf(ctx).parentField));
  const rootList = intArray(roots);
  const below = sql`(with recursive down(id) as (select id from ${name} where id = any(${rootList}) union all select n.id from ${name} n join down on n.${parentName} = down.id) select id from down)`;
  const rows = await db.select({ id, parent }).from(table).where(sql`${id} in ${below}`);
  return rows.map((row) => ({ id: Number(row.id), parent: row.parent === null ? null : Number(row.parent) }));
}

/** Refuses a parent that is the node itself or lies under it: the tree would lose a branch in a loop. */
export async function refuseCycle(ctx: EngineContext, db: Executor, nodeId: number, parentId: number): Promise<void> {
  const { table, id } = treeColumns(ctx);
  const [loop] = await db.select({ id }).from(table).where(and(eq(id, nodeId), sql`${id} in ${ancestorsOf(ctx, parentId)}`)).limit(1);
  if (loop) throw badRequest([{ path: treeOf(ctx).parentField, ...msg('tree.cycle') }]);
}

async function nextPosition(ctx: EngineContext, db: Executor, parentId: number | null): Promise<number> {
  const { table, parent, order } = treeColumns(ctx);
  const [last] = await db.select({ n: sql<number>`coalesce(max(${order}), -1)::int` }).from(table).where(isUnder(parent, parentId));
  return Number(last?.n ?? -1) + 1;
}

/** On Add puts a node last among its siblings; an Update that changes the parent refuses a cycle and puts it last under the new parent. */
export async function placeTreeNode(ctx: EngineContext, db: Executor, values: Row, existing?: Row): Promise<Row> {
  if (!ctx.def.tree) return values;
  const { parentField, orderField } = ctx.def.tree;
  const isReparented = existing === undefined || (values[parentField] !== undefined && values[parentField] !== existing[parentField]);
  if (!isReparented) return values;
  const raw = valueAfter(values, existing, parentField);
  const parentId = raw === null || raw === undefined ? null : Number(raw);
  if (existing && parentId !== null) await refuseCycle(ctx, db, Number(existing.id), parentId);
  return { ...values, [orderField]: await nextPosition(ctx, db, parentId) };
}

/** Writes positions 0..n-1 to the listed siblings whose stored position differs. */
export async function renumber(ctx: EngineContext, db: Executor, ordered: { id: number; position: unknown }[]): Promise<void> {
  const { tree, table, id } = treeColumns(ctx);
  for (const [position, sibling] of ordered.entries()) {
    if (sibling.position !== position) await db.update(table).set({ [tree.orderField]: position }).where(eq(id, sibling.id));
  }
}

/** The children of `parentId` other than `except`, in order, locked for the renumbering. */
export async function siblingsOf(ctx: EngineContext, db: Executor, parentId: number | null, except: number) {
  const { table, id, parent, order } = treeColumns(ctx);
  const rows = await db
    .select({ id, position: order })
    .from(table)
    .where(and(isUnder(parent, parentId), ne(id, except)))
    .orderBy(asc(order), asc(id))
    .for('update');
  return rows.map((row) => ({ id: Number(row.id), position: row.position }));
}

/**
 * Deletes the locked rows of a tree in the delete's transaction, deepest first (the parent reference
 * restricts deletes): a node with children outside the selection is refused, naming it, unless the
 * family declares `cascade`, which deletes its whole subtree.
 */
export async function deleteTreeRows(ctx: EngineContext, db: Executor, rows: Row[]): Promise<void> {
  if (!ctx.def.tree) return;
  const { table, id } = treeColumns(ctx);
  const selected = new Set(rows.map((row) => Number(row.id)));
  const nodes = await subtreesOf(ctx, db, [...selected]);
  if (!ctx.def.tree.cascade) {
    const orphaned = nodes.find((node) => !selected.has(node.id));
    if (orphaned) {
      const parentRow = rows.find((row) => Number(row.id) === orphaned.parent) ?? rows.find((row) => selected.has(Number(row.id)));
      const title = String(parentRow?.[ctx.def.titleField] ?? orphaned.parent);
      throw badRequest([{ path: 'id', ...msg('tree.hasChildren', { title }) }], msg('tree.hasChildren', { title }));
    }
  }
  const parentOf = new Map(nodes.map((node) => [node.id, node.parent]));
  const depthOf = (node: number): number => {
    const parent = parentOf.get(node);
    return parent === null || parent === undefined || !parentOf.has(parent) ? 0 : 1 + depthOf(parent);
  };
  const byDepth = new Map<number, number[]>();
  for (const node of nodes) {
    const depth = depthOf(node.id);
    byDepth.set(depth, [...(byDepth.get(depth) ?? []), node.id]);
  }
  for (const depth of [...byDepth.keys()].sort((a, b) => b - a)) await db.delete(table).where(inArray(id, byDepth.get(depth)!));
}

/** The whole tree in the caller's scope, nested and ordered among siblings (at most TREE_NODE_CAP nodes). */
export function nestTree(ctx: Pick<EngineContext, 'def'>, rows: Row[]): TreeNode[] {
  const { parentField } = treeOf(ctx);
  const byId = new Map<number, TreeNode>(rows.map((row) => [Number(row.id), { ...row }]));
  const roots: TreeNode[] = [];
  for (const node of byId.values()) {
    const parent = node[parentField] === null || node[parentField] === undefined ? undefined : byId.get(Number(node[parentField]));
    // A node whose parent is out of reach is shown as a root rather than lost.
    if (parent) parent.children = [...(parent.children ?? []), node];
    else roots.push(node);
  }
  return roots;
}
