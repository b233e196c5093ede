import { ErrorCode } from '@campus/contract';
import { Readable } from 'node:stream';
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

/** A field error on the wire (FieldError): the message in the caller's language, its key and parameters. */
export const fieldErrorSchema = z.object({
  path: z.string(),
  message: z.string(),
  key: z.string().optional(),
  params: z.record(z.string(), z.unknown()).optional(),
});

/**
 * The failure envelope the error handler answers: `data.errors` holds field errors on a 400, a 500
 * answers its request id. Loose, so a failure's own data is never stripped on its way out.
 */
export const errorEnvelopeSchema = z.object({
  code: z.union([z.number(), z.string()]),
  message: z.string(),
  key: z.string().optional(),
  params: z.record(z.string(), z.unknown()).optional(),
  data: z.looseObject({ errors: z.array(fieldErrorSchema).optional(), requestId: z.string().optional() }).nullable(),
});

/** The failures every guarded call may answer, by HTTP status (ARCHITECTURE "Calls and errors"). */
export const errorResponses = {
  400: errorEnvelopeSchema.describe('Invalid input: data.errors lists the field errors'),
  401: errorEnvelopeSchema.describe("No valid session: code '10010' (invalid) or '10011' (expired)"),
  403: errorEnvelopeSchema.describe('The caller lacks the page or the button'),
  404: errorEnvelopeSchema.describe("Absent, or outside the caller's data scope"),
  409: errorEnvelopeSchema.describe('The row changed since it was read, or its state forbids the call'),
  500: errorEnvelopeSchema.describe('Unexpected failure: data.requestId names the logged error'),
};

/** The media type of the .xlsx exports. */
export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A streamed body: sent as it is (Fastify never serializes a stream); the schema only documents the bytes. */
export const binaryBody = z.instanceof(Readable).meta({ type: 'string', format: 'binary' });

/** The 200 of an export: a binary workbook, documented by content type and never serialized. */
export const xlsxResponse = {
  description: 'The .xlsx workbook',
  content: { [XLSX_CONTENT_TYPE]: { schema: binaryBody } },
};
