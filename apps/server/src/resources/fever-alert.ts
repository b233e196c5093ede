/**
 * userTemperature (FeverAlert): acknowledging an alert, the unacknowledged-alerts badge and where the
 * fever threshold setting is stored. The alerts themselves are written by the database, in the transaction of
 * each recognition insert (migration `*_recognition-rollups.sql`), with the threshold read there.
 */
import { DEFAULT_FEVER_THRESHOLD, FEVER_THRESHOLD_KEY, FeverAlert, FeverThresholdSetting } from '@campus/contract';
import type { Database } from '../db/client.js';
import { conflict, msg } from '../platform/errors.js';
import { getSetting, setSetting } from '../platform/settings.js';
import { defineFamilyModule } from './engine/modules.js';
import type { SettingStore } from './engine/settings.js';
import { rowAction } from './engine/row-actions.js';

/** The threshold in force: the setting, or 37.3 ℃ until a company user sets one. */
export async function feverThresholdOf(db: Database): Promise<number> {
  const value = await getSetting(db, FEVER_THRESHOLD_KEY);
  return typeof value === 'number' ? value : DEFAULT_FEVER_THRESHOLD;
}


/** The threshold lives in the settings table under FEVER_THRESHOLD_KEY, read by the recognition insert's trigger. */
const feverThresholdStore: SettingStore = {
  read: async (db) => ({ threshold: await feverThresholdOf(db) }),
  write: (db, value) => setSetting(db, FEVER_THRESHOLD_KEY, value.threshold),
};

export const feverAlertModule = defineFamilyModule(FeverAlert, {
  pending: { badge: 'feverUnacknowledged', where: { acknowledged: false } },
  settings: [{ def: FeverThresholdSetting, store: feverThresholdStore }],
  actions: {
    /** Marks the alert handled by the caller, once: a second acknowledgement answers 409 and keeps the first. */
    Acknowledge: rowAction('Acknowledge', (ctx, existing) => {
      if (existing.acknowledged) throw conflict(msg('fever.alreadyAcknowledged'));
      const values = { acknowledged: true, acknowledgedBy: ctx.user.id, acknowledgedAt: ctx.clock.now() };
      return { values, answer: { id: existing.id, ...values, acknowledgedAt: values.acknowledgedAt.toISOString() } };
    }),
  },
});
