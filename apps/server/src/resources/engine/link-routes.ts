/** The calls of links that carry values: `GET /api/{Family}/Get{verb}?id=` and `POST /api/{Family}/Save{verb}`. */
import { idQuerySchema, linkEntriesBodySchemaOf, linkEntrySchemaOf, linkListKey, resourcePath, versionAnswerSchema, viewQuerySchema, type ResourceDef } from '@campus/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client.js';
import { ok } from '../../platform/envelope.js';
import { conflict, msg } from '../../platform/errors.js';
import { documentedCall } from '../../platform/route-docs.js';
import type { Row } from './context.js';
import { hooksOf } from './hooks.js';
import { attributedLinksOf, readLinkEntries, replaceLinkEntries } from './link-attributes.js';
import { updateRecords } from './services.js';
import type { RouteParts } from './tree-routes.js';
import { loadInScope } from './write.js';

/**
 * Registers Get{verb} (holders of the page) and Save{verb} (the update button) of each link with
 * attributes. Save locks the row, replaces its links, runs the family's afterWrite with the new ids
 * (as an Update of the field would), bumps the row's version and logs the links before → after.
 */
export function registerLinkRoutes(parent: FastifyInstance, def: ResourceDef, parts: RouteParts): void {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  for (const [name, field] of attributedLinksOf({ def })) {
    const { verb } = field.link.attributes;
    const list = linkListKey(field.link.attributes);
    const shown = (entries: Row[]) => entries.map((entry) => Object.fromEntries([field.link.target, field.display, ...Object.keys(field.link.attributes.fields)].map((key) => [key, entry[key]])));

    app.get(
      resourcePath(def.name, `Get${verb}`),
      { onRequest: parts.guard(def), schema: { ...documentedCall(def.name, `Get${verb}`, `${field.label.en} of a row, with their ${Object.keys(field.link.attributes.fields).join(', ')}`, z.array(linkEntrySchemaOf(field))), querystring: idQuerySchema } },
      async (request) => {
        const ctx = parts.contextOf(request);
        await loadInScope(ctx, ctx.db, request.query.id);
        return ok(await readLinkEntries(ctx, ctx.db, name, request.query.id));
      },
    );

    app.post(
      resourcePath(def.name, `Save${verb}`),
      { onRequest: parts.guard(def, 'update'), schema: { ...documentedCall(def.name, `Save${verb}`, `Replace the ${field.label.en} of a row`, versionAnswerSchema), querystring: viewQuerySchema, body: linkEntriesBodySchemaOf(field) } },
      async (request) => {
        const ctx = parts.contextOf(request);
        const { id, version, [list]: entries } = request.body as { id: number; version?: number } & Record<string, Row[]>;
        return ok(
          await ctx.db.transaction(async (tx) => {
            const existing = await loadInScope(ctx, tx, id, true);
            if (version !== undefined && Number(existing.version) !== version) throw conflict(msg('error.staleVersion'));
            const before = await readLinkEntries(ctx, tx, name, id);
            await replaceLinkEntries(ctx, tx, name, id, entries ?? []);
            const ids = (entries ?? []).map((entry) => Number(entry[field.link.target]));
            await hooksOf(def).afterWrite?.({ ...ctx, db: tx as Database }, { op: 'update', ids: [id], values: { [name]: ids }, existing });
            const after = await readLinkEntries(ctx, tx, name, id);
            const [changed] = await updateRecords(tx, def, [id], { values: {}, now: new Date(), log: { userId: ctx.user.id, action: list, changes: { [list]: [shown(before), shown(after)] } } });
            return changed!;
          }),
        );
      },
    );
  }
}
