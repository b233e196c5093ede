/** The calls only tree families have: `GET /api/{Family}/Tree` (nested nodes) and `POST /api/{Family}/Move`. */
import { resourcePath, treeMoveSchema, treeNodeSchemaOf, versionAnswerSchema, viewQuerySchema, type ButtonValue, type ResourceDef } from '@campus/contract';
import { z } from 'zod';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '../../platform/envelope.js';
import { documentedCall } from '../../platform/route-docs.js';
import type { EngineContext, Row } from './context.js';
import { allConditions, columnOf, orderOf, scopeWhere, selectRows, toWire, viewConditions } from './query.js';
import { tableOf } from './registry.js';
import { TREE_NODE_CAP, nestTree } from './tree.js';
import { moveNode } from './tree-move.js';

/** What the generic routes share with the tree routes: the guard, its context, and how rows are completed. */
export interface RouteParts {
  guard: (def: ResourceDef, button?: ButtonValue) => (request: FastifyRequest) => Promise<void>;
  contextOf: (request: FastifyRequest) => EngineContext;
  completeRows: (request: FastifyRequest, ctx: EngineContext, rows: Row[]) => Promise<Row[]>;
}

/** Registers Tree and Move of a family that declares `tree`. */
export function registerTreeRoutes(parent: FastifyInstance, def: ResourceDef, parts: RouteParts): void {
  const tree = def.tree;
  if (!tree) return;
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const table = tableOf(def);

  app.get(resourcePath(def.name, 'Tree'), { onRequest: parts.guard(def), schema: { ...documentedCall(def.name, 'Tree', 'The whole tree, nested, ordered among siblings', z.array(treeNodeSchemaOf(def))), querystring: viewQuerySchema } }, async (request) => {
    const ctx = parts.contextOf(request);
    const rows = await selectRows(ctx, allConditions(scopeWhere(ctx, table), viewConditions(ctx, table)))
      .orderBy(...orderOf(ctx, table, tree.orderField, 'asc'), columnOf(table, tree.parentField))
      .limit(TREE_NODE_CAP);
    const completed = await parts.completeRows(request, ctx, (rows as Row[]).map((row) => toWire(def, row)));
    return ok(nestTree(ctx, completed));
  });

  app.post(
    resourcePath(def.name, 'Move'),
    { onRequest: parts.guard(def, 'update'), schema: { ...documentedCall(def.name, 'Move', 'Move a node under another (null = root) at a position among its siblings', versionAnswerSchema), querystring: viewQuerySchema, body: treeMoveSchema } },
    async (request) => ok(await moveNode(parts.contextOf(request), request.body)),
  );
}
