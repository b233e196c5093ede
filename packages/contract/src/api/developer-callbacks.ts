/**
 * Callbacks to developers (developManage): when recognition events of a developer's schools are
 * stored, the platform POSTs them, in batches, to the developer's callback URL. Each POST is signed
 * like an Open API call, in the other direction: the same four headers and `openStringToSign` over
 * POST, the callback URL's path with its query, the timestamp, the nonce and the body's SHA-256,
 * keyed by the developer's own secret (the one ResetSecret answered). docs/terminal-intake.md
 * "Callbacks to developers" shows how a receiver verifies it.
 */
import { z } from 'zod';
import { OPEN_API_HEADERS, openRecognitionEventSchema } from './open-api.js';

export const CALLBACK_HEADERS = {
  ...OPEN_API_HEADERS,
  /** The delivery's idempotency key: the same on every attempt of one delivery, so a receiver drops repeats. */
  deliveryId: 'x-open-delivery-id',
} as const;

export const developerCallbackBodySchema = z.object({
  /** The delivery's idempotency key (also in the `x-open-delivery-id` header). */
  deliveryId: z.string(),
  schoolId: z.number().int(),
  /** The events of one intake batch of one terminal, in the Open API's form (snapshots as signed addresses). */
  events: z.array(openRecognitionEventSchema),
});
export type DeveloperCallbackBody = z.infer<typeof developerCallbackBodySchema>;

/** Attempts of one delivery before it is DEAD (an operator may retry it then). */
export const CALLBACK_MAX_ATTEMPTS = 8;
/** Wait after the first failed attempt; doubled after each further one, up to CALLBACK_MAX_DELAY_MS, with jitter. */
export const CALLBACK_BASE_DELAY_MS = 30_000;
export const CALLBACK_MAX_DELAY_MS = 60 * 60_000;
/** How long a receiver has to answer one POST. */
export const CALLBACK_TIMEOUT_MS = 10_000;
