/**
 * Credentials the server must read back to use them itself — an NVR's login, a developer's signing
 * secret (an HMAC needs the key, which a hash cannot give; docs/decisions.md "Terminal secrets are
 * sealed, not hashed") — sealed with the terminal secrets' AES-256-GCM sealer under a per-deployment
 * key kept in the settings table: a copy of the rows alone gives none of them away. Written through
 * the engine's write transaction, so it takes any executor rather than the app. Never answered to a
 * client after the write that set them.
 */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { settings } from '../db/schema/settings.js';
import type { Executor } from '../resources/engine/write.js';
import { createSecretSealer, parseSecretKey, type SecretSealer } from '../terminals/secrets.js';

const KEY_SETTING = 'secrets.sealingKey';

/** The sealer under the deployment's key: created once (the first instance wins), then read. */
async function sealer(db: Executor): Promise<SecretSealer> {
  await db.insert(settings).values({ key: KEY_SETTING, value: randomBytes(32).toString('base64') }).onConflictDoNothing();
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, KEY_SETTING));
  return createSecretSealer(parseSecretKey(String(row?.value)));
}

/** The sealed form of a secret (`v1.<iv>.<tag>.<ciphertext>`). */
export async function sealSecret(db: Executor, secret: string): Promise<string> {
  return (await sealer(db)).seal(secret);
}

/** The secret a sealed value holds, or undefined when it was altered or sealed under another key. */
export async function openSealedSecret(db: Executor, sealed: string): Promise<string | undefined> {
  return (await sealer(db)).unseal(sealed);
}
