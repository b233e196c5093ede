import { ErrorCode, type ErrorCodeValue, type MessageParamsOf, type ServerMessage, type ServerMessageKey } from '@campus/contract';

/** A field error as the server raises it: the field's path and a message of the catalogue. */
export interface FieldProblem extends ServerMessage {
  path: string;
}

/**
 * An expected failure: the error handler answers it as the envelope with this status and code, its
 * message and field messages written in the caller's language.
 */
export class AppError extends Error {
  override name = 'AppError';

  constructor(
    readonly httpStatus: number,
    readonly code: ErrorCodeValue,
    readonly reason: ServerMessage,
    readonly data: unknown = null,
    readonly fieldProblems: readonly FieldProblem[] = [],
  ) {
    super(reason.key);
  }
}

/** A message of the catalogue by key, with its parameters. */
export function msg(key: ServerMessageKey, params?: MessageParamsOf): ServerMessage {
  return params ? { key, params } : { key };
}

/** HTTP 400 code 400 with field errors the web form puts on its fields. */
export function badRequest(errors: FieldProblem[], reason: ServerMessage = msg('error.request')): AppError {
  return new AppError(400, ErrorCode.Validation, reason, null, errors);
}

/** HTTP 401: '10010' the token is missing or unknown, '10011' it has expired. */
export function unauthorized(code: typeof ErrorCode.TokenInvalid | typeof ErrorCode.TokenExpired): AppError {
  return new AppError(401, code, msg(code === ErrorCode.TokenExpired ? 'auth.tokenExpired' : 'auth.tokenInvalid'));
}

/** HTTP 403: the caller lacks the frame or the button value. */
export function forbidden(reason: ServerMessage = msg('error.forbidden')): AppError {
  return new AppError(403, ErrorCode.Forbidden, reason);
}

/** HTTP 404: absent, or outside the caller's data scope (the same answer, so ids cannot be probed). */
export function notFound(reason: ServerMessage = msg('error.notFound')): AppError {
  return new AppError(404, ErrorCode.NotFound, reason);
}

/** HTTP 409: the row changed since the caller read it, or the action does not fit its state. */
export function conflict(reason: ServerMessage): AppError {
  return new AppError(409, ErrorCode.Conflict, reason);
}

/** HTTP 429: too many requests of one kind in a short time. */
export function tooManyRequests(reason: ServerMessage): AppError {
  return new AppError(429, ErrorCode.TooManyRequests, reason);
}

/**
 * Login refused: HTTP 200 with envelope code 600, as the old system answered (its client reads the
 * code, not the status, and shows the message; a wrong password reads 'password error' in English).
 */
export function loginFailed(reason: ServerMessage): AppError {
  return new AppError(200, ErrorCode.LoginFailed, reason);
}

/** HTTP 200 code 601: the account must verify its phone by SMS and set a new password first. */
export function mustChangePassword(data: { userName: string; phoneMasked: string }): AppError {
  return new AppError(200, ErrorCode.MustChangePassword, msg('login.mustChangePassword'), data);
}

/** HTTP 200 code 603: the password was right; the account sets up its mandatory authenticator with this challenge first. */
export function twoFactorSetupRequired(data: { challenge: string; expiresAt: string }): AppError {
  return new AppError(200, ErrorCode.TwoFactorSetupRequired, msg('login.twoFactorSetupRequired'), data);
}

/** HTTP 200 code 602: the password was right; the login continues with the second factor and this challenge. */
export function secondFactorRequired(data: { challenge: string; expiresAt: string }): AppError {
  return new AppError(200, ErrorCode.SecondFactorRequired, msg('login.secondFactorRequired'), data);
}
