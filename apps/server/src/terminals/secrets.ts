/**
 * Terminal secrets, sealed. The server verifies each intake call's HMAC with the device's secret,
 * so it must be able to read the secret back: a hash would not do (docs/decisions.md "Terminal
 * secrets are sealed, not hashed"). It is kept as AES-256-GCM under a key from TERMINAL_SECRET_KEY,
 * or, when unset, a key created once and kept in the settings table like the media-url secret.
 */
import { randomBytes } from 'node:crypto';
import fp from 'fastify-plugin';
import { createSecretSealer, newSealingKeyText, parseSecretKey, type SecretSealer } from '../platform/sealed-secrets.js';
import { settingCreatedOnce } from '../platform/settings.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The sealer of terminal secrets; its key is read (or created) at the first call. */
    terminalSecrets(): Promise<SecretSealer>;
  }
}

const KEY_SETTING = 'terminals.secretKey';
/** A terminal's secret: 32 random bytes, base64url (43 characters) as the console shows it. */
const SECRET_BYTES = 32;

/** A fresh terminal secret. */
export function newTerminalSecret(): string {
  return randomBytes(SECRET_BYTES).toString('base64url');
}

/** Makes the sealer reachable as app.terminalSecrets(). */
export const terminalSecretsPlugin = fp(
  async (app) => {
    let sealer: Promise<SecretSealer> | undefined;
    app.decorate('terminalSecrets', () => {
      const given = app.env.TERMINAL_SECRET_KEY;
      sealer ??= (given ? Promise.resolve(given) : settingCreatedOnce(app.db, KEY_SETTING, newSealingKeyText)).then((text) => createSecretSealer(parseSecretKey(text)));
      // A failed read is tried again at the next call rather than remembered.
      sealer.catch(() => (sealer = undefined));
      return sealer;
    });
  },
  { name: 'terminal-secrets', dependencies: ['context'] },
);
