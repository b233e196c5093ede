import { eq, sql } from 'drizzle-orm';
import type { Database, Executor } from '../db/client.js';
import { settings } from '../db/schema/index.js';

export const SIGN_CARD_MODE_KEY = 'signCardMode';

/** Reads a setting's JSON value; undefined when the key is absent. */
export async function getSetting(db: Database, key: string): Promise<unknown> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key));
  return row?.value;
}

/** A deployment-wide value (a signing or sealing key): created by the first instance that asks, then read by all. */
export async function settingCreatedOnce(db: Executor, key: string, create: () => string): Promise<string> {
  await db.insert(settings).values({ key, value: create() }).onConflictDoNothing();
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key));
  return String(row?.value);
}

/** Writes a setting (insert or replace), bumping its version. */
export async function setSetting(db: Database, key: string, value: unknown): Promise<void> {
  await db
    .insert(settings)
    .values({ key, value })
    .onConflictDoUpdate({
      target: settings.key,
      set: { value, updatedAt: sql`now()`, version: sql`${settings.version} + 1` },
    });
}

/** Sign-card mode: when false, codeManageA and codeManageB are hidden and blocked. On unless set otherwise. */
export async function getSignCardMode(db: Database): Promise<boolean> {
  return isSignCardModeOn(await getSetting(db, SIGN_CARD_MODE_KEY));
}

/** Sign-card mode is on unless the setting says false (absent = on). */
export function isSignCardModeOn(value: unknown): boolean {
  return value !== false;
}

/** Turns sign-card mode on or off for everyone, from the next request on. */
export async function setSignCardMode(db: Database, isOn: boolean): Promise<void> {
  await setSetting(db, SIGN_CARD_MODE_KEY, isOn);
}
