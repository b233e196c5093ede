/**
 * The platform-wide terminal settings (equipmentManage): the heartbeat interval told to devices and
 * the similarity a known person's event must reach to be stored as a successful recognition. Both
 * are read by the intake in the statement that finds the calling device (intake-auth.ts), so a
 * change applies from the next call of every device.
 */
import {
  API_PATHS,
  DEFAULT_HEARTBEAT_SECONDS,
  DEFAULT_SUCCESS_SIMILARITY,
  HEARTBEAT_SECONDS_MAX,
  HEARTBEAT_SECONDS_MIN,
  Terminal,
  terminalSettingsSchema,
  type TerminalSettings,
} from '@campus/contract';
import { inArray } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../db/client.js';
import { settings } from '../db/schema/index.js';
import { envelopeSchema, ok } from '../platform/envelope.js';
import { requireCompanyUser, requireFrame } from '../platform/permissions.js';
import { setSetting } from '../platform/settings.js';
import { logOperation } from '../resources/engine/services.js';

/** Settings key of the heartbeat interval told to devices (seconds). */
export const HEARTBEAT_SECONDS_SETTING = 'terminals.heartbeatSeconds';
/** Settings key of the similarity (0–100) a known person's event must reach to count as recognised. */
export const SUCCESS_SIMILARITY_SETTING = 'recognition.successSimilarity';

/** The interval a stored value names: whole seconds within the bounds; anything else is the default. */
export function heartbeatSecondsOf(value: unknown): number {
  const seconds = Number(value);
  return value !== null && Number.isInteger(seconds) && seconds >= HEARTBEAT_SECONDS_MIN && seconds <= HEARTBEAT_SECONDS_MAX ? seconds : DEFAULT_HEARTBEAT_SECONDS;
}

/** The success similarity a stored value names: 0–100; anything else (unset) is the default. */
export function successSimilarityOf(value: unknown): number {
  const similarity = Number(value);
  return value !== null && value !== undefined && Number.isFinite(similarity) && similarity >= 0 && similarity <= 100 ? similarity : DEFAULT_SUCCESS_SIMILARITY;
}

/** Both settings as in force now. */
export async function terminalSettingsOf(db: Database): Promise<TerminalSettings> {
  const rows = await db.select({ key: settings.key, value: settings.value }).from(settings).where(inArray(settings.key, [HEARTBEAT_SECONDS_SETTING, SUCCESS_SIMILARITY_SETTING]));
  const valueOf = (key: string) => rows.find((row) => row.key === key)?.value;
  return { heartbeatSeconds: heartbeatSecondsOf(valueOf(HEARTBEAT_SECONDS_SETTING)), successSimilarity: successSimilarityOf(valueOf(SUCCESS_SIMILARITY_SETTING)) };
}

/** GetSettings (anyone with the terminal page) and SaveSettings (company users holding `update` on it). */
export const terminalSettingsRoutes: FastifyPluginAsyncZod = async (app) => {
  const answer = envelopeSchema(terminalSettingsSchema);
  app.get(
    API_PATHS.terminalSettings,
    { onRequest: requireFrame('equipmentManage'), schema: { tags: [Terminal.name], summary: 'The heartbeat interval and the success similarity in force', response: { 200: answer } } },
    async () => ok(await terminalSettingsOf(app.db)),
  );
  app.post(
    API_PATHS.saveTerminalSettings,
    {
      // Platform-wide: an agent or a school account must not change every customer's devices,
      // whatever its grant holds (refused before the body is read).
      onRequest: [requireFrame('equipmentManage', 'update'), requireCompanyUser],
      schema: { tags: [Terminal.name], summary: 'Set the heartbeat interval and the success similarity (company users); devices get them at their next call', body: terminalSettingsSchema, response: { 200: answer } },
    },
    async (request) => {
      const next: TerminalSettings = { heartbeatSeconds: request.body.heartbeatSeconds, successSimilarity: Math.round(request.body.successSimilarity * 10) / 10 };
      await app.db.transaction(async (tx) => {
        const db = tx as unknown as Database;
        const previous = await terminalSettingsOf(db);
        await setSetting(db, HEARTBEAT_SECONDS_SETTING, next.heartbeatSeconds);
        await setSetting(db, SUCCESS_SIMILARITY_SETTING, next.successSimilarity);
        const changes = Object.fromEntries(
          (Object.keys(next) as (keyof TerminalSettings)[]).filter((key) => previous[key] !== next[key]).map((key) => [key, [previous[key], next[key]]]),
        );
        await logOperation(tx, { userId: request.user.id, family: Terminal.name, action: 'settings', ids: [], changes });
      });
      return ok(next);
    },
  );
};
