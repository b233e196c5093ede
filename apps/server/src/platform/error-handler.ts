import { ErrorCode, formatServerMessage, type FieldError, type MessageLocale, type ServerMessage } from '@campus/contract';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, badRequest, msg, type FieldProblem } from './errors.js';
import { localeOf } from './locale.js';
import { translatePgError } from './pg-errors.js';
import { messageOfIssue, type IssueFacts } from './zod-issues.js';

/** A catalogue message on the wire: the text in the caller's language, key and parameters to render it again. */
function written(message: ServerMessage, locale: MessageLocale) {
  return { message: formatServerMessage(message.key, message.params, locale), key: message.key, ...(message.params ? { params: message.params } : {}) };
}

function sendAppError(request: FastifyRequest, reply: FastifyReply, error: AppError) {
  const locale = localeOf(request);
  const errors: FieldError[] = error.fieldProblems.map(({ path, ...message }) => ({ path, ...written(message, locale) }));
  const data = errors.length > 0 ? { ...(error.data as object | null), errors } : error.data;
  return reply.status(error.httpStatus).send({ code: error.code, ...written(error.reason, locale), data });
}

/** zod issues of a request part → field problems with dotted paths ('servicePhone1', 'items.0.id'). */
function validationErrors(error: FastifyError & { validation: { instancePath: string; keyword: string; message?: string; params?: unknown }[] }): FieldProblem[] {
  return error.validation.map((issue) => ({
    path: issue.instancePath.replace(/^\//, '').replaceAll('/', '.'),
    ...messageOfIssue({ ...(issue.params as IssueFacts | undefined), code: issue.keyword, message: issue.message }),
  }));
}

function isFastifyClientError(error: unknown): error is FastifyError {
  const status = (error as FastifyError | undefined)?.statusCode;
  return typeof status === 'number' && status >= 400 && status < 500;
}

/**
 * Failures Fastify answers before routing, outside the error handler: a URL whose percent-encoding
 * is no UTF-8 (FST_ERR_BAD_URL) or a path parameter too long (FST_ERR_MAX_PARAM_LENGTH). Given as
 * the app's `frameworkErrors`, so they leave in the envelope like every other failure.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const status = isFastifyClientError(error) ? error.statusCode! : 400;
  return sendAppError(request, reply, new AppError(status, ErrorCode.Validation, msg('error.request')));
}

/** A write that lost a deadlock may be sent again at once: the other transaction has its locks by then. */
const COLLIDED_RETRY_AFTER_SECONDS = 1;

/**
 * The one error layer: every failure leaves as the envelope `{ code, message, data }`. Expected errors
 * keep their status; input the schemas reject is HTTP 400 with field errors; constraint violations are
 * field errors too; anything else is a logged 500 that answers only the request id.
 */
export const errorHandlerPlugin = fp(
  async (app) => {
    app.setErrorHandler((error, request: FastifyRequest, reply) => {
      if (error instanceof AppError) return sendAppError(request, reply, error);
      if (hasZodFastifySchemaValidationErrors(error)) return sendAppError(request, reply, badRequest(validationErrors(error)));
      const translated = translatePgError(error);
      if (translated) {
        if (translated.httpStatus === 503) reply.header('retry-after', COLLIDED_RETRY_AFTER_SECONDS);
        return sendAppError(request, reply, translated);
      }
      if (isFastifyClientError(error)) {
        // Malformed JSON, wrong content type, body too large...: the client's fault, never a 500.
        const status = error.statusCode!;
        return reply.status(status).send({ code: status, message: error.message, data: null });
      }
      // Route, method and caller go with the line into the platform log (platLog), beside the request id.
      request.log.error({ err: error, method: request.method, route: request.routeOptions.url ?? request.url, statusCode: 500, userId: request.user?.id }, 'request failed');
      return reply.status(500).send({ code: ErrorCode.Internal, ...written(msg('error.internal'), localeOf(request)), data: { requestId: request.id } });
    });
  },
  { name: 'error-handler' },
);
