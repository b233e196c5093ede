/**
 * Where the platform-wide terminal settings (equipmentManage, TerminalSettingsSetting) live: the heartbeat interval told to devices and
 * the similarity a known person's event must reach to be stored as a successful recognition. Both
 * are read by the intake in the statement that finds the calling device (intake-auth.ts), so a
 * change applies from the next call of every device.
 */
import {
  DEFAULT_HEARTBEAT_SECONDS,
  DEFAULT_SUCCESS_SIMILARITY,
  HEARTBEAT_SECONDS_MAX,
  HEARTBEAT_SECONDS_MIN,
  type TerminalSettings,
} from '@campus/contract';
import { inArray } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { settings } from '../db/schema/index.js';
import { setSetting } from '../platform/settings.js';
import type { SettingStore } from '../resources/engine/settings.js';

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

/** Both values live in the settings table, each under its key (read by the intake: intake-auth.ts). */
export const terminalSettingsStore: SettingStore = {
  read: (db) => terminalSettingsOf(db),
  async write(db, value) {
    await setSetting(db, HEARTBEAT_SECONDS_SETTING, value.heartbeatSeconds);
    await setSetting(db, SUCCESS_SIMILARITY_SETTING, value.successSimilarity);
  },
};
