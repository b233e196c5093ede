/**
 * Credentials the server must read back to use them itself — an NVR's login, a developer's signing
 * secret (an HMAC needs the key, which a hash cannot give) — stored encrypted with AES-256-GCM under
 * one per-deployment key in the settings table, the way the TOTP secrets are (two-factor.ts): a copy
 * of the rows alone gives none of them away. Never answered to a client after the write that set them.
 */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { settings } from '../db/schema/settings.js';
import type { Executor } from '../resources/engine/write.js';
import { decryptSecret, encryptSecret } from './two-factor.js';

const KEY_SETTING = 'secrets.sealingKey';

/** The deployment's 32-byte sealing key: created once (the first instance wins), then read. */
async function sealingKey(db: Executor): Promise<Buffer> {
  await db.insert(settings).values({ key: KEY_SETTING, value: randomBytes(32).toString('base64url') }).onConflictDoNothing();
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, KEY_SETTING));
  return Buffer.from(String(row?.value), 'base64url');
}

/** The sealed form of a secret (`v1.<iv>.<tag>.<ciphertext>`). */
export async function sealSecret(db: Executor, secret: string): Promise<string> {
  return encryptSecret(await sealingKey(db), secret);
}

/** The secret a sealed value holds; throws if it was altered or sealed under another key. */
export async function openSealedSecret(db: Executor, sealed: string): Promise<string> {
  return decryptSecret(await sealingKey(db), sealed);
}
