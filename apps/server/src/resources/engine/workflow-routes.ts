/** The calls of a workflow family: one POST per transition, and the state history of a row. */
import { batchTransitionAnswerSchema, batchTransitionBodySchemaOf, batchVerbOf, idQuerySchema, resourcePath, stateHistorySchema, transitionAnswerSchema, transitionBodySchemaOf, viewQuerySchema, type ButtonValue, type ResourceDef } from '@campus/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '../../platform/envelope.js';
import { documentedCall } from '../../platform/route-docs.js';
import type { EngineContext } from './context.js';
import { assertWorkflow, readHistory, runBatchTransition, runTransition, type TransitionInput } from './workflow.js';

/** How routes.ts checks the caller's page and button, and finds the context it resolved. */
export interface RouteGuards {
  guard: (def: ResourceDef, button?: ButtonValue) => (request: FastifyRequest) => Promise<void>;
  contextOf: (request: FastifyRequest) => EngineContext;
}

/**
 * Registers `POST /api/{Family}/{verb}` for each transition (guarded by its button), `Batch{verb}` for a batch one, and
 * `GET /api/{Family}/History?id=` (guarded like Get). Throws at start on an inconsistent workflow.
 */
export function registerWorkflowRoutes(parent: FastifyInstance, def: ResourceDef, { guard, contextOf }: RouteGuards): void {
  if (!def.workflow) return;
  assertWorkflow(def);
  const app = parent.withTypeProvider<ZodTypeProvider>();
  for (const transition of def.workflow.transitions) {
    const body = transitionBodySchemaOf(transition);
    app.post(
      resourcePath(def.name, transition.verb),
      { onRequest: guard(def, transition.button), schema: { ...documentedCall(def.name, transition.verb, `${transition.label.en} (workflow transition)`, transitionAnswerSchema), querystring: viewQuerySchema, body } },
      async (request) => ok(await runTransition(contextOf(request), transition, request.body as TransitionInput)),
    );
    if (!transition.batch) continue;
    app.post(
      resourcePath(def.name, batchVerbOf(transition)),
      {
        onRequest: guard(def, transition.button),
        schema: { ...documentedCall(def.name, batchVerbOf(transition), `${transition.label.en} on several rows at once: all of them or none (409 naming a row in another state)`, batchTransitionAnswerSchema), querystring: viewQuerySchema, body: batchTransitionBodySchemaOf(transition) },
      },
      async (request) => ok(await runBatchTransition(contextOf(request), transition, request.body as { ids: number[] })),
    );
  }
  app.get(
    resourcePath(def.name, 'History'),
    { onRequest: guard(def), schema: { ...documentedCall(def.name, 'History', 'State history of a row, oldest first', stateHistorySchema), querystring: idQuerySchema } },
    async (request) => ok(await readHistory(contextOf(request), request.query.id)),
  );
}
