/**
 * Secrets the server must read back to use them itself — a terminal's or a developer's HMAC key (a
 * hash cannot give the key back: docs/decisions.md "Terminal secrets are sealed, not hashed"), an
 * NVR's login, an administrator's TOTP seed — sealed with AES-256-GCM under a per-deployment key, so
 * a copy of the rows alone gives none of them away. Never answered to a client after the write that
 * set them.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Executor } from '../db/client.js';
import { settingCreatedOnce } from './settings.js';

const KEY_SETTING = 'secrets.sealingKey';
const VERSION = 'v1';
const IV_BYTES = 12;

export interface SecretSealer {
  seal(secret: string): string;
  /** The secret, or undefined when the sealed text is damaged or sealed under another key. */
  unseal(sealed: string): string | undefined;
}

/** A 32-byte key given as 64 hex digits or base64 (base64url too). */
export function parseSecretKey(text: string): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== 32) throw new Error('a sealing key must be 32 bytes');
  return key;
}

/** A fresh 32-byte key in the form parseSecretKey reads, for a settings row. */
export const newSealingKeyText = (): string => randomBytes(32).toString('base64');

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
        // A wrong key or a damaged value fails the tag: the caller treats it like no secret at all.
        return undefined;
      }
    },
  };
}

/** The sealer under the deployment's key kept in the settings table (NVR logins, developer secrets). */
async function sealer(db: Executor): Promise<SecretSealer> {
  return createSecretSealer(parseSecretKey(await settingCreatedOnce(db, KEY_SETTING, newSealingKeyText)));
}

/** The sealed form of a secret (`v1.<iv>.<tag>.<ciphertext>`). */
export async function sealSecret(db: Executor, secret: string): Promise<string> {
  return (await sealer(db)).seal(secret);
}

/** The secret a sealed value holds, or undefined when it was altered or sealed under another key. */
export async function openSealedSecret(db: Executor, sealed: string): Promise<string | undefined> {
  return (await sealer(db)).unseal(sealed);
}
