/**
 * A tree family's Move. It lives apart from tree.ts because it loads and logs through write.ts, which
 * itself calls tree.ts to place and delete nodes.
 */
import { and, eq } from 'drizzle-orm';
import { badRequest, msg } from '../../platform/errors.js';
import type { EngineContext } from './context.js';
import { scopeWhere } from './query.js';
import { refuseCycle, renumber, siblingsOf, treeColumns } from './tree.js';
import { loadInScope, recordOperation } from './write.js';
import { updateRecords } from './services.js';

/** Moves a node under `parentId` (null = root) to `orderIndex` among its new siblings, renumbering both sibling lists, in one transaction. */
export async function moveNode(ctx: EngineContext, input: { id: number; parentId: number | null; orderIndex: number }): Promise<{ id: number; version: number }> {
  const { tree, table, id } = treeColumns(ctx);
  return ctx.db.transaction(async (tx) => {
    const node = await loadInScope(ctx, tx, input.id, true);
    const oldParent = node[tree.parentField] === null ? null : Number(node[tree.parentField]);
    if (input.parentId !== null) {
      const [parent] = await tx.select({ id }).from(table).where(and(eq(id, input.parentId), scopeWhere(ctx, table)));
      if (!parent) throw badRequest([{ path: 'parentId', ...msg('validation.referenceNotFound', { field: ctx.def.label }) }]);
      await refuseCycle(ctx, tx, input.id, input.parentId);
    }
    const siblings = await siblingsOf(ctx, tx, input.parentId, input.id);
    const at = Math.min(Math.max(0, input.orderIndex), siblings.length);
    const [updated] = await updateRecords(tx, ctx.def, [input.id], { values: { [tree.parentField]: input.parentId, [tree.orderField]: at }, now: new Date() });
    await renumber(ctx, tx, [...siblings.slice(0, at), { id: input.id, position: at }, ...siblings.slice(at)]);
    if (oldParent !== input.parentId) await renumber(ctx, tx, await siblingsOf(ctx, tx, oldParent, input.id));
    await recordOperation(tx, ctx, 'move', [input.id], { [tree.parentField]: [oldParent, input.parentId], [tree.orderField]: [node[tree.orderField], at] });
    return { id: input.id, version: updated!.version };
  });
}
