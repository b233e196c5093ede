/**
 * The two calls of a declared setting (SettingDef): Get for holders of its page, Save for company
 * users holding its button, the value checked against the declared bounds, rounded, stored by the
 * family's store and logged before → after in one transaction. A family gives only where the value
 * lives and what a change implies (SettingStore); routes, checks and the log are the same for all.
 */
import { roundSettingValue, settingSchema, type SettingDef, type SettingValue } from '@campus/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client.js';
import type { AuthUser } from '../../platform/auth.js';
import { envelopeSchema, ok } from '../../platform/envelope.js';
import { requireCompanyUser, requireFrame } from '../../platform/permissions.js';
import { logOperation } from './services.js';

/** Where a setting's value lives, given by the family whose page shows it. */
export interface SettingStore {
  /** The value in force (its defaults until someone saves one). */
  read(db: Database): Promise<SettingValue>;
  /**
   * Stores a checked, rounded value inside the save's transaction (`db`); may refuse it (throw
   * badRequest on a field) or do what the change implies (end sessions).
   */
  write(db: Database, value: SettingValue, caller: AuthUser): Promise<void>;
}

/** A declared setting with its store: what a family module lists under `settings`. */
export interface SettingBinding {
  def: SettingDef;
  store: SettingStore;
}

/** Get and Save of one declared setting (module doc). */
export function settingRoutes({ def, store }: SettingBinding): FastifyPluginAsyncZod {
  const schema = settingSchema(def);
  const answer = envelopeSchema(schema);
  return async (app) => {
    app.get(def.paths.get, { onRequest: requireFrame(def.frame), schema: { tags: [def.family], summary: def.summaries.get, response: { 200: answer } } }, async () =>
      ok(await store.read(app.db)),
    );
    app.post(
      def.paths.save,
      {
        // Platform-wide: an agent or a school account must not change every customer's setting,
        // whatever its grant holds (refused before the body is read).
        onRequest: [requireFrame(def.frame, def.button), requireCompanyUser],
        schema: { tags: [def.family], summary: def.summaries.save, description: def.description, body: schema, response: { 200: answer } },
      },
      async (request) => {
        const next = roundSettingValue(def, request.body);
        await app.db.transaction(async (tx) => {
          const db = tx as unknown as Database;
          const previous = await store.read(db);
          await store.write(db, next, request.user);
          const changes = Object.fromEntries(Object.keys(def.fields).filter((key) => previous[key] !== next[key]).map((key) => [key, [previous[key], next[key]]]));
          await logOperation(tx, { userId: request.user.id, family: def.family, action: def.action, ids: [], changes });
        });
        return ok(next);
      },
    );
  };
}
