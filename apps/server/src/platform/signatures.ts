/**
 * Signatures only this deployment can make: an HMAC over a text with a secret kept in the settings
 * table, one secret per purpose, created by the first instance that needs it, so every instance signs
 * and checks alike and restarts keep what was signed valid.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Executor } from '../db/client.js';
import { settingCreatedOnce } from './settings.js';

export interface Signer {
  /** The signature of `text` (base64url). */
  sign(text: string): string;
  /** Whether `signature` is this signer's for `text`, compared in constant time. */
  verify(text: string, signature: string): boolean;
}

/** A signer over `secret`; `length` cuts signatures short where an address must stay short. */
export function signerOver(secret: string, length?: number): Signer {
  const sign = (text: string) => createHmac('sha256', secret).update(text).digest('base64url').slice(0, length);
  return {
    sign,
    verify(text, signature) {
      const expected = Buffer.from(sign(text));
      const given = Buffer.from(signature);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },
  };
}

/** The deployment's signer for one purpose, its secret stored under `secretKey`. */
export async function deploymentSigner(db: Executor, secretKey: string, length?: number): Promise<Signer> {
  return signerOver(await settingCreatedOnce(db, secretKey, () => randomBytes(32).toString('base64url')), length);
}
