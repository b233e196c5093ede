/**
 * Terminal secrets, sealed. The server verifies each intake call's HMAC with the device's secret,
 * so it must be able to read the secret back: a hash would not do (docs/decisions.md "Terminal
 * secrets are sealed, not hashed"). It is kept as AES-256-GCM under a key from TERMINAL_SECRET_KEY,
 * or, when unset, a key created once and kept in the settings table like the media-url secret.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fp from 'fastify-plugin';
import type { Database } from '../db/client.js';
import { settings } from '../db/schema/index.js';
import { getSetting } from '../platform/settings.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The sealer of terminal secrets; its key is read (or created) at the first call. */
    terminalSecrets(): Promise<SecretSealer>;
  }
}

const KEY_SETTING = 'terminals.secretKey';
const VERSION = 'v1';
const IV_BYTES = 12;
/** A terminal's secret: 32 random bytes, base64url (43 characters) as the console shows it. */
const SECRET_BYTES = 32;

export interface SecretSealer {
  seal(secret: string): string;
  /** The secret, or undefined when the sealed text is damaged or sealed under another key. */
  unseal(sealed: string): string | undefined;
}

/** A fresh terminal secret. */
export function newTerminalSecret(): string {
  return randomBytes(SECRET_BYTES).toString('base64url');
}

/** The key given as 64 hex digits or base64. */
export function parseSecretKey(text: string): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== 32) throw new Error('TERMINAL_SECRET_KEY must be 32 bytes');
  return key;
}

/** Seals with AES-256-GCM: `v1.<iv>.<tag>.<ciphertext>`, each base64url. */
export function createSecretSealer(key: Buffer): SecretSealer {
  return {
    seal(secret) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join('.');
    },
    unseal(sealed) {
      const [version, iv, tag, ciphertext] = sealed.split('.');
      if (version !== VERSION || !iv || !tag || ciphertext === undefined) return undefined;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        // A wrong key or a damaged value fails the tag: the device is then refused like one without a secret.
        return undefined;
      }
    },
  };
}

/** The deployment's sealing key from the settings: created once (the first instance wins), then read. */
async function storedKey(db: Database): Promise<Buffer> {
  await db.insert(settings).values({ key: KEY_SETTING, value: randomBytes(32).toString('base64') }).onConflictDoNothing();
  return parseSecretKey(String(await getSetting(db, KEY_SETTING)));
}

/** Makes the sealer reachable as app.terminalSecrets(). */
export const terminalSecretsPlugin = fp(
  async (app) => {
    let sealer: Promise<SecretSealer> | undefined;
    app.decorate('terminalSecrets', () => {
      const given = app.env.TERMINAL_SECRET_KEY;
      sealer ??= (given ? Promise.resolve(parseSecretKey(given)) : storedKey(app.db)).then(createSecretSealer);
      // A failed read is tried again at the next call rather than remembered.
      sealer.catch(() => (sealer = undefined));
      return sealer;
    });
  },
  { name: 'terminal-secrets', dependencies: ['context'] },
);
