import { ErrorCode, WRONG_PASSWORD_MESSAGE } from '@campus/contract';
import { translate, type Locale, type MessageKey } from './i18n';

/** How the client reacts to one failure: the rows of SEED-SPEC section 8. */
export type FailureKind =
  | 'loginMessage' // code 600
  | 'mustChangePassword' // code 601
  | 'secondFactorRequired' // code 602: the login page asks for the authenticator code
  | 'twoFactorSetupRequired' // code 603: the login page sets up the mandatory authenticator
  | 'sessionEnded' // codes '10010' / '10011'
  | 'codeXxx' // code 'xxx': show code, message and url
  | 'http' // an HTTP status of the catalogue
  | 'business' // any other code: the server's message
  | 'network'; // no answer at all

export interface FailureFacts {
  /** HTTP status; 0 when no answer came back. */
  status: number;
  /** The envelope's code, when the answer had one. */
  code: number | string | null;
  /** The envelope's message, when the answer had one. */
  serverMessage: string;
  /** The envelope's message key, when the answer had one. */
  serverKey?: string | null;
  url: string;
  /** Request id a 500 answers with, so a user can quote it. */
  requestId?: string | null;
}

export interface FailureDescription {
  kind: FailureKind;
  message: string;
}

/** HTTP statuses the seed names, each with its text (SEED-SPEC section 8). */
export const HTTP_STATUS_MESSAGE_KEYS: Readonly<Record<number, MessageKey>> = {
  400: 'http.400',
  401: 'http.401',
  403: 'http.403',
  404: 'http.404',
  408: 'http.408',
  500: 'http.500',
  501: 'http.501',
  502: 'http.502',
  503: 'http.503',
  504: 'http.504',
  505: 'http.505',
};

const SESSION_ENDED_CODES: readonly string[] = [ErrorCode.TokenInvalid, ErrorCode.TokenExpired];

function sameCode(code: number | string | null, expected: number | string): boolean {
  return code !== null && String(code) === String(expected);
}

/** The server says 'password error' for a wrong password; the client shows it in the user's language. */
export function isWrongPasswordMessage(serverMessage: string): boolean {
  return serverMessage.trim().toLowerCase() === WRONG_PASSWORD_MESSAGE;
}

/**
 * Maps one failed call to what the user is told. Codes with their own behaviour come first (they
 * arrive with HTTP 200 or 401 alike), then the HTTP statuses of the catalogue, then the server's text.
 */
export function describeFailure(facts: FailureFacts, locale: Locale): FailureDescription {
  const { status, code, serverMessage, url } = facts;
  const t = (key: MessageKey, params?: Record<string, string | number>) => translate(key, params, locale);

  if (code !== null && SESSION_ENDED_CODES.includes(String(code))) {
    return { kind: 'sessionEnded', message: t('error.sessionEnded') };
  }
  if (sameCode(code, ErrorCode.LoginFailed)) {
    const message = isWrongPasswordMessage(serverMessage) ? t('error.passwordError') : serverMessage || t('error.unknown');
    return { kind: 'loginMessage', message };
  }
  if (sameCode(code, ErrorCode.MustChangePassword)) {
    return { kind: 'mustChangePassword', message: t('error.mustChangePassword') };
  }
  if (sameCode(code, ErrorCode.SecondFactorRequired)) {
    return { kind: 'secondFactorRequired', message: t('error.secondFactorRequired') };
  }
  if (sameCode(code, ErrorCode.TwoFactorSetupRequired)) {
    return { kind: 'twoFactorSetupRequired', message: t('error.twoFactorSetupRequired') };
  }
  if (sameCode(code, 'xxx')) {
    return { kind: 'codeXxx', message: t('error.codeXxx', { code: String(code), message: serverMessage, url }) };
  }
  if (status === 0) {
    return { kind: 'network', message: t('error.network') };
  }
  // The write met another on the same rows and PostgreSQL rolled it back to let the other through.
  if (status === 503 && facts.serverKey === 'error.writeCollided') {
    return { kind: 'http', message: t('error.writeCollided') };
  }
  // The server shed the call (load shedding): it is not down, only busy for a moment.
  if (status === 503 && sameCode(code, ErrorCode.ServiceUnavailable)) {
    return { kind: 'http', message: t('error.serverBusy') };
  }
  const statusKey = HTTP_STATUS_MESSAGE_KEYS[status];
  if (statusKey) {
    let message = t(statusKey, { url });
    // A bare 'request error' helps nobody; the server's reason (e.g. "SMS code expired") follows it.
    if (status === 400 && serverMessage) message = `${message}: ${serverMessage}`;
    if (status === 500 && facts.requestId) message = `${message} (${t('error.serverRequestId', { requestId: facts.requestId })})`;
    return { kind: 'http', message };
  }
  if (serverMessage) return { kind: 'business', message: serverMessage };
  if (status >= 300) return { kind: 'http', message: t('http.other', { status }) };
  return { kind: 'business', message: t('error.unknown') };
}
