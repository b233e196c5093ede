import { ErrorCode, type ErrorCodeValue, type FieldError } from '@campus/contract';

/** An expected failure: the error handler answers it as the envelope with this status and code. */
export class AppError extends Error {
  override name = 'AppError';

  constructor(
    readonly httpStatus: number,
    readonly code: ErrorCodeValue,
    message: string,
    readonly data: unknown = null,
  ) {
    super(message);
  }
}

/** HTTP 400 code 400 with field errors the web form puts on its fields. */
export function badRequest(errors: FieldError[], message = 'request error'): AppError {
  return new AppError(400, ErrorCode.Validation, message, { errors });
}

/** HTTP 401: '10010' the token is missing or unknown, '10011' it has expired. */
export function unauthorized(code: typeof ErrorCode.TokenInvalid | typeof ErrorCode.TokenExpired): AppError {
  return new AppError(401, code, code === ErrorCode.TokenExpired ? 'token expired' : 'token invalid');
}

/** HTTP 403: the caller lacks the frame or the button value. */
export function forbidden(message = 'access denied'): AppError {
  return new AppError(403, ErrorCode.Forbidden, message);
}

/** HTTP 404: absent, or outside the caller's data scope (the same answer, so ids cannot be probed). */
export function notFound(message = 'not found'): AppError {
  return new AppError(404, ErrorCode.NotFound, message);
}

/** HTTP 409: the row changed since the caller read it, or the action does not fit its state. */
export function conflict(message: string): AppError {
  return new AppError(409, ErrorCode.Conflict, message);
}

/** HTTP 429: too many requests of one kind in a short time. */
export function tooManyRequests(message: string): AppError {
  return new AppError(429, ErrorCode.TooManyRequests, message);
}

/**
 * Login refused: HTTP 200 with envelope code 600, as the old system answered (its client reads the
 * code, not the status, and shows the message; a wrong password must read exactly 'password error').
 */
export function loginFailed(message: string): AppError {
  return new AppError(200, ErrorCode.LoginFailed, message);
}

/** HTTP 200 code 601: the account must verify its phone by SMS and set a new password first. */
export function mustChangePassword(data: { userName: string; phoneMasked: string }): AppError {
  return new AppError(200, ErrorCode.MustChangePassword, 'the password must be changed before signing in', data);
}
