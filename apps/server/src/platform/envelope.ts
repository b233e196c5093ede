import { ErrorCode } from '@campus/contract';
import { z } from 'zod';

/** The success envelope `{ code: 200, message: 'ok', data }`. */
export function ok<T>(data: T): { code: 200; message: 'ok'; data: T } {
  return { code: ErrorCode.Success, message: 'ok', data };
}

/** Response schema of a success envelope around `data`, for route schemas and OpenAPI. */
export function envelopeSchema<T extends z.ZodType>(data: T) {
  return z.object({ code: z.literal(ErrorCode.Success), message: z.string(), data });
}

/** Any failure envelope; declared where a failure is answered with HTTP 200 (login's 600/601). */
export const failureEnvelopeSchema = z.object({
  code: z.union([z.number(), z.string()]),
  message: z.string(),
  data: z.unknown(),
});
