/**
 * userTemperature (FeverAlert): acknowledging an alert, the unacknowledged-alerts badge and the
 * fever threshold setting. The alerts themselves are written by the database, in the transaction of
 * each recognition insert (migration `*_recognition-rollups.sql`), with the threshold read there.
 */
import {
  API_PATHS,
  DEFAULT_FEVER_THRESHOLD,
  FEVER_THRESHOLD_KEY,
  FeverAlert,
  feverThresholdSchema,
  type FeverThreshold,
} from '@campus/contract';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../db/client.js';
import { feverAlerts } from '../db/schema/resources.js';
import { pendingRowsBadge } from '../platform/badges.js';
import { envelopeSchema, ok } from '../platform/envelope.js';
import { conflict, msg, notFound } from '../platform/errors.js';
import { requireCompanyUser, requireFrame } from '../platform/permissions.js';
import { getSetting, setSetting } from '../platform/settings.js';
import { allConditions, scopeWhere } from './engine/query.js';
import { defineFamilyModule } from './engine/modules.js';
import { recordOperation } from './engine/write.js';
import { logOperation } from './engine/services.js';

/** The threshold in force: the setting, or 37.3 ℃ until a company user sets one. */
export async function feverThresholdOf(db: Database): Promise<number> {
  const value = await getSetting(db, FEVER_THRESHOLD_KEY);
  return typeof value === 'number' ? value : DEFAULT_FEVER_THRESHOLD;
}

/** Fever alerts in scope nobody has acknowledged yet (`(school_id, acknowledged, time, id)` serves it). */
const feverUnacknowledgedBadge = pendingRowsBadge('feverUnacknowledged', feverAlerts, feverAlerts.schoolId, eq(feverAlerts.acknowledged, false));

/** GetThreshold (anyone with the page) and SaveThreshold (company users holding `examine` on it). */
export const feverThresholdRoutes: FastifyPluginAsyncZod = async (app) => {
  const answer = envelopeSchema(feverThresholdSchema);
  app.get(
    API_PATHS.feverThreshold,
    { onRequest: requireFrame('userTemperature'), schema: { tags: [FeverAlert.name], summary: 'The fever threshold (℃) alerts are raised at', response: { 200: answer } } },
    async () => ok<FeverThreshold>({ threshold: await feverThresholdOf(app.db) }),
  );
  app.post(
    API_PATHS.saveFeverThreshold,
    {
      // A platform-wide setting: an agent or a school account must not change every customer's
      // alerts, whatever its grant holds (refused before the body is read).
      onRequest: [requireFrame('userTemperature', 'examine'), requireCompanyUser],
      schema: { tags: [FeverAlert.name], summary: 'Set the fever threshold (company users); records arriving from now on use it', body: feverThresholdSchema, response: { 200: answer } },
    },
    async (request) => {
      const threshold = Math.round(request.body.threshold * 10) / 10;
      await app.db.transaction(async (tx) => {
        const previous = await feverThresholdOf(tx as unknown as Database);
        await setSetting(tx as unknown as Database, FEVER_THRESHOLD_KEY, threshold);
        await logOperation(tx, { userId: request.user.id, family: FeverAlert.name, action: 'threshold', ids: [], changes: { threshold: [previous, threshold] } });
      });
      return ok<FeverThreshold>({ threshold });
    },
  );
};

export const feverAlertModule = defineFamilyModule(FeverAlert, {
  badges: [feverUnacknowledgedBadge],
  routes: [feverThresholdRoutes],
  actions: {
    /** Marks the alert handled by the caller, once: a second acknowledgement answers 409 and keeps the first. */
    Acknowledge: async (ctx, id) =>
      ctx.db.transaction(async (tx) => {
        const [found] = await tx
          .select({ id: feverAlerts.id, acknowledged: feverAlerts.acknowledged })
          .from(feverAlerts)
          .where(allConditions(eq(feverAlerts.id, id), scopeWhere(ctx, feverAlerts)))
          .for('update');
        if (!found) throw notFound();
        if (found.acknowledged) throw conflict(msg('fever.alreadyAcknowledged'));
        const acknowledgedAt = new Date();
        await tx.update(feverAlerts).set({ acknowledged: true, acknowledgedBy: ctx.user.id, acknowledgedAt }).where(eq(feverAlerts.id, id));
        await recordOperation(tx, ctx, 'Acknowledge', [id], { acknowledged: [false, true] });
        return { id, acknowledged: true, acknowledgedBy: ctx.user.id, acknowledgedAt: acknowledgedAt.toISOString() };
      }),
  },
});
