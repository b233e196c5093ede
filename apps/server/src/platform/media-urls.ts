/**
 * Signed, expiring addresses of uploaded files. Uploads include students' face photos: a stored
 * address alone must not open the file, so answers carry `?e=<expiry>&s=<HMAC>` and /uploads/ serves
 * only addresses signed by this deployment within their lifetime. The secret lives in the settings
 * table, so every server instance signs and checks alike and restarts keep addresses valid.
 */
import { UPLOAD_SIGNATURE_PATTERN, UPLOAD_URL_PREFIX, isUploadUrl, unsignedUploadUrl } from '@campus/contract';
import fp from 'fastify-plugin';
import type { Clock } from './clock.js';
import { deploymentSigner, type Signer } from './signatures.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The signer of /uploads/ addresses; its secret is read (or created) at the first call. */
    mediaUrls(): Promise<MediaUrlSigner>;
  }
}

const SECRET_KEY = 'uploads.urlSecret';
/** How long a signed address opens its file: a working day, rounded up to the hour. */
const LIFETIME_SECONDS = 12 * 3600;
/** Expiries are whole hours, so one file's address stays the same for an hour and browsers cache it. */
const EXPIRY_STEP_SECONDS = 3600;

export interface MediaUrlSigner {
  /** The signed form of an /uploads/ address; any other value is answered unchanged. */
  sign(value: string): string;
  /** Seconds the signed address of `key` still opens its file, or null when the signature is not valid now. */
  secondsLeft(key: string, query: { e?: string; s?: string }): number | null;
}

/** Signed addresses by `signer` on `clock`'s time. */
export function createMediaUrlSigner(signer: Signer, clock: Clock): MediaUrlSigner {
  const nowSeconds = () => Math.floor(clock.now().getTime() / 1000);
  return {
    sign(value) {
      if (!isUploadUrl(value)) return value;
      const url = unsignedUploadUrl(value);
      const expires = String(Math.ceil((nowSeconds() + LIFETIME_SECONDS) / EXPIRY_STEP_SECONDS) * EXPIRY_STEP_SECONDS);
      return `${url}?e=${expires}&s=${signer.sign(`${url.slice(UPLOAD_URL_PREFIX.length)}\n${expires}`)}`;
    },
    secondsLeft(key, { e, s }) {
      if (e === undefined || s === undefined || !UPLOAD_SIGNATURE_PATTERN.test(`e=${e}&s=${s}`)) return null;
      const left = Number(e) - nowSeconds();
      if (left <= 0) return null;
      return signer.verify(`${key}\n${e}`, s) ? left : null;
    },
  };
}

/** Makes the signer reachable as app.mediaUrls(); nothing is read before a file's address is needed. */
export const mediaUrlsPlugin = fp(
  async (app) => {
    let signer: Promise<MediaUrlSigner> | undefined;
    app.decorate('mediaUrls', () => {
      signer ??= deploymentSigner(app.db, SECRET_KEY).then((urls) => createMediaUrlSigner(urls, app.clock));
      // A failed read is tried again at the next call rather than remembered.
      signer.catch(() => (signer = undefined));
      return signer;
    });
  },
  { name: 'media-urls', dependencies: ['context'] },
);
