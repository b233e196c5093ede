/**
 * The Open API: server-to-server calls of third-party developers (developManage), signed like the
 * terminal intake but keyed by the developer's app id. Each call carries the app id, a Unix-millisecond
 * timestamp, a random nonce and an HMAC-SHA256 (hex) keyed by the developer's secret over
 * `openStringToSign(...)`: method, path with its query, timestamp, nonce and the body's SHA-256.
 * The secret never travels after ResetSecret answered it.
 */
import { z } from 'zod';
import { intakeStringToSign } from './terminal-intake.js';

export const OPEN_API_PATHS = {
  recognitionEvents: '/api/Open/RecognitionEvents',
} as const;

export const OPEN_API_HEADERS = {
  appId: 'x-open-app-id',
  timestamp: 'x-open-timestamp',
  nonce: 'x-open-nonce',
  signature: 'x-open-signature',
} as const;

/** SHA-256 (hex) of an empty body: what a GET signs. */
export const EMPTY_BODY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

/** The exact text a developer signs; `pathWithQuery` is the request target as sent (`/api/Open/…?since=…`). */
export function openStringToSign(parts: { method: string; pathWithQuery: string; timestamp: string; nonce: string; bodySha256Hex?: string }): string {
  return intakeStringToSign({ method: parts.method, path: parts.pathWithQuery, timestamp: parts.timestamp, nonce: parts.nonce, bodySha256Hex: parts.bodySha256Hex ?? EMPTY_BODY_SHA256 });
}

export const OPEN_EVENTS_MAX_LIMIT = 500;

/**
 * `since`: the `next` of the previous answer (`<ISO time>_<id>`), or an ISO time to start after;
 * absent = from the oldest record kept.
 */
export const openEventsQuerySchema = z.object({
  since: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?(Z|[+-]\d{2}:\d{2})(_\d{1,10})?$/)
    .optional(),
  limit: z.coerce.number().int().min(1).max(OPEN_EVENTS_MAX_LIMIT).default(100),
});
export type OpenEventsQuery = z.infer<typeof openEventsQuerySchema>;

export const openRecognitionEventSchema = z.object({
  id: z.number().int(),
  recognizedAt: z.string(),
  schoolId: z.number().int(),
  deviceId: z.number().int(),
  personKind: z.number().int(),
  personId: z.number().int().nullable(),
  personName: z.string().nullable(),
  direction: z.number().int(),
  similarity: z.number(),
  temperature: z.number().nullable(),
  success: z.boolean(),
  /** The snapshot's address, signed and opening the image for a limited time (like the console's own), or null. */
  snapshot: z.string().nullable(),
});
export type OpenRecognitionEvent = z.infer<typeof openRecognitionEventSchema>;

export const openEventsAnswerSchema = z.object({
  items: z.array(openRecognitionEventSchema),
  /** Pass as `since` to read on; null when nothing was answered (ask again later with the same `since`). */
  next: z.string().nullable(),
  hasMore: z.boolean(),
});
export type OpenEventsAnswer = z.infer<typeof openEventsAnswerSchema>;
