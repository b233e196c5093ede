import { ErrorCode, type FieldError } from '@campus/contract';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, badRequest } from './errors.js';
import { translatePgError } from './pg-errors.js';

function sendAppError(reply: FastifyReply, error: AppError) {
  return reply.status(error.httpStatus).send({ code: error.code, message: error.message, data: error.data });
}

/** zod issues of a request part → `[{ path, message }]` with dotted paths ('servicePhone1', 'items.0.id'). */
function validationErrors(error: FastifyError & { validation: { instancePath: string; message?: string }[] }): FieldError[] {
  return error.validation.map((issue) => ({
    path: issue.instancePath.replace(/^\//, '').replaceAll('/', '.'),
    message: issue.message ?? 'is invalid',
  }));
}

function isFastifyClientError(error: unknown): error is FastifyError {
  const status = (error as FastifyError | undefined)?.statusCode;
  return typeof status === 'number' && status >= 400 && status < 500;
}

/**
 * The one error layer: every failure leaves as the envelope `{ code, message, data }`. Expected errors
 * keep their status; input the schemas reject is HTTP 400 with field errors; constraint violations are
 * field errors too; anything else is a logged 500 that answers only the request id.
 */
export const errorHandlerPlugin = fp(
  async (app) => {
    app.setErrorHandler((error, request: FastifyRequest, reply) => {
      if (error instanceof AppError) return sendAppError(reply, error);
      if (hasZodFastifySchemaValidationErrors(error)) return sendAppError(reply, badRequest(validationErrors(error)));
      const translated = translatePgError(error);
      if (translated) return sendAppError(reply, translated);
      if (isFastifyClientError(error)) {
        // Malformed JSON, wrong content type, body too large...: the client's fault, never a 500.
        const status = error.statusCode!;
        return reply.status(status).send({ code: status, message: error.message, data: null });
      }
      request.log.error({ err: error }, 'request failed');
      return reply.status(500).send({ code: ErrorCode.Internal, message: 'internal server error', data: { requestId: request.id } });
    });
  },
  { name: 'error-handler' },
);
