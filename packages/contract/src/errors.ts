/** Answer codes of the envelope `{ code, message, data }` (ARCHITECTURE "Calls and errors"). */
export const ErrorCode = {
  Success: 200,
  Validation: 400,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  Conflict: 409,
  TooManyRequests: 429,
  Internal: 500,
  /** Load shed: the server is busy (HTTP 503 with Retry-After). */
  ServiceUnavailable: 503,
  LoginFailed: 600,
  MustChangePassword: 601,
  /** The password was right; the account answers its second factor with the challenge (docs/decisions.md). */
  SecondFactorRequired: 602,
  /** The password was right; two-factor sign-in is mandatory and the account sets up an authenticator first. */
  TwoFactorSetupRequired: 603,
  TokenInvalid: '10010',
  TokenExpired: '10011',
} as const;
export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

/** The message the client shows for a wrong password (SEED-SPEC section 8). */
export const WRONG_PASSWORD_MESSAGE = 'password error';

/** A field error on the wire: `message` in the caller's language, `key` and `params` to render it again. */
export interface FieldError {
  path: string;
  message: string;
  key?: string;
  params?: Readonly<Record<string, unknown>>;
}

export interface Envelope<T = unknown> {
  code: number | string;
  message: string;
  data: T;
  /** The message's key in the server catalogue (messages.ts), when it has one. */
  key?: string;
  params?: Readonly<Record<string, unknown>>;
}
