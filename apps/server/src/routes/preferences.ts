/**
 * /api/Preference/*: the caller's own preferences of a list page (table layout, filter presets).
 * Every call reads and writes only the caller's row; the page key must name a known frame and family,
 * so a user holds at most one bounded row per list page.
 */
import {
  FRAME_BY_INDEX,
  MAX_FILTER_VIEWS,
  PREFERENCE_PATHS,
  RESOURCES,
  deleteViewBodySchema,
  pagePreferencesSchema,
  preferenceQuerySchema,
  resetTableBodySchema,
  saveTableBodySchema,
  saveViewBodySchema,
  type FilterView,
  type PagePreferences,
} from '@campus/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../db/client.js';
import { userPreferences } from '../db/schema/index.js';
import { ok } from '../platform/envelope.js';
import { badRequest, msg } from '../platform/errors.js';
import { documentedCall } from '../platform/route-docs.js';

/** `frame.Family` must name a route and a family the product has: otherwise 400 on `page`. */
function checkPage(page: string): void {
  const [frame = '', family = ''] = page.split('.');
  if (!FRAME_BY_INDEX.has(frame) || !RESOURCES[family]) throw badRequest([{ path: 'page', ...msg('validation.invalid') }]);
}

const ofCaller = (userId: number, page: string) => and(eq(userPreferences.userId, userId), eq(userPreferences.page, page));

async function readPreferences(db: Database, userId: number, page: string): Promise<PagePreferences> {
  const [row] = await db.select({ table: userPreferences.tableSettings, views: userPreferences.views }).from(userPreferences).where(ofCaller(userId, page));
  return { page, table: row?.table ?? null, views: row?.views ?? [] };
}

/** Rewrites the caller's presets of a page under a row lock, so two saves at once never lose one. */
async function updateViews(db: Database, userId: number, page: string, change: (views: FilterView[]) => FilterView[]): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.insert(userPreferences).values({ userId, page }).onConflictDoNothing();
    const [row] = await tx.select({ views: userPreferences.views }).from(userPreferences).where(ofCaller(userId, page)).for('update');
    await tx
      .update(userPreferences)
      .set({ views: change(row?.views ?? []), updatedAt: sql`now()` })
      .where(ofCaller(userId, page));
  });
}

export const preferenceRoutes: FastifyPluginAsyncZod = async (app) => {
  const answer = pagePreferencesSchema;

  app.get(
    PREFERENCE_PATHS.get,
    { schema: { ...documentedCall('Preference', 'Get', "The caller's table layout and filter presets of a list page", answer), querystring: preferenceQuerySchema } },
    async (request) => {
      checkPage(request.query.page);
      return ok(await readPreferences(app.db, request.user.id, request.query.page));
    },
  );

  app.post(
    PREFERENCE_PATHS.saveTable,
    { schema: { ...documentedCall('Preference', 'SaveTable', "Replace the caller's table layout of a list page", answer), body: saveTableBodySchema } },
    async (request) => {
      const { page, table } = request.body;
      checkPage(page);
      await app.db
        .insert(userPreferences)
        .values({ userId: request.user.id, page, tableSettings: table })
        .onConflictDoUpdate({ target: [userPreferences.userId, userPreferences.page], set: { tableSettings: table, updatedAt: sql`now()` } });
      return ok(await readPreferences(app.db, request.user.id, page));
    },
  );

  app.post(
    PREFERENCE_PATHS.resetTable,
    { schema: { ...documentedCall('Preference', 'ResetTable', "Forget the caller's table layout of a list page (the presets stay)", answer), body: resetTableBodySchema } },
    async (request) => {
      const { page } = request.body;
      checkPage(page);
      await app.db.update(userPreferences).set({ tableSettings: null, updatedAt: sql`now()` }).where(ofCaller(request.user.id, page));
      return ok(await readPreferences(app.db, request.user.id, page));
    },
  );

  app.post(
    PREFERENCE_PATHS.saveView,
    { schema: { ...documentedCall('Preference', 'SaveView', 'Save the current filters as a named preset (a preset of the same name is replaced)', answer), body: saveViewBodySchema } },
    async (request) => {
      const { page, view } = request.body;
      checkPage(page);
      await updateViews(app.db, request.user.id, page, (views) => {
        const others = views.filter((candidate) => candidate.name !== view.name);
        if (others.length >= MAX_FILTER_VIEWS) throw badRequest([{ path: 'view', ...msg('validation.tooManyItems', { max: MAX_FILTER_VIEWS }) }]);
        return [...others, view];
      });
      return ok(await readPreferences(app.db, request.user.id, page));
    },
  );

  app.post(
    PREFERENCE_PATHS.deleteView,
    { schema: { ...documentedCall('Preference', 'DeleteView', 'Delete a named filter preset', answer), body: deleteViewBodySchema } },
    async (request) => {
      const { page, name } = request.body;
      checkPage(page);
      await updateViews(app.db, request.user.id, page, (views) => views.filter((view) => view.name !== name));
      return ok(await readPreferences(app.db, request.user.id, page));
    },
  );
};
