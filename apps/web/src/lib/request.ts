import { BACKGROUND_REQUEST_HEADER, ErrorCode, type FieldError } from '@campus/contract';
import { describeFailure, type FailureFacts, type FailureKind } from './error-messages';
import { getLocale, translate } from './i18n';
import { emitRequestEvent } from './request-events';
import { clearSession, getToken } from './session';
import { isRecord } from './storage';
import { showToast } from './toast';

/** Every failed call rejects with this one shape: `{ status, code, message, errors }`. */
export class RequestError extends Error {
  /** HTTP status; 0 when no answer came back, 408 when the client gave up waiting. */
  readonly status: number;
  /** The envelope's code, or null when the answer had none. */
  readonly code: number | string | null;
  /** Field errors of a validation failure (HTTP 400), for forms to show on their fields. */
  readonly errors: FieldError[];
  readonly url: string;
  readonly kind: FailureKind;
  /** The envelope's data, e.g. `{ userName, phoneMasked }` with code 601. */
  readonly data: unknown;

  constructor(init: { message: string; status: number; code: number | string | null; errors: FieldError[]; url: string; kind: FailureKind; data: unknown }) {
    super(init.message);
    this.name = 'RequestError';
    this.status = init.status;
    this.code = init.code;
    this.errors = init.errors;
    this.url = init.url;
    this.kind = init.kind;
    this.data = init.data;
  }
}

export type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];
export type Query = Record<string, QueryValue>;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  query?: Query;
  /** Sent as JSON. */
  body?: unknown;
  /** No toast on failure (the badge counts: the seed says their failures are ignored). The promise still rejects. */
  silent?: boolean;
  timeoutMs?: number;
  signal?: AbortSignal;
  /**
   * The call reads and changes nothing, so a shed one (HTTP 503) may be sent again: GETs are, a POST
   * only when the caller says so (Search). Defaults to `method === 'GET'`.
   */
  idempotent?: boolean;
  /**
   * A call the user did not ask for (a poll): marked with `X-Background: 1` so the server does not
   * count it as activity and an open tab still reaches the idle limit (ASVS 3.3.2). An expired
   * session still answers '10011' and ends the session here like any call.
   */
  background?: boolean;
}

export const DEFAULT_TIMEOUT_MS = 30_000;

/** How often a shed idempotent call is sent again, and the back-off between tries (doubling, with jitter). */
export const BUSY_RETRY = { attempts: 3, baseDelayMs: 1000, maxDelayMs: 10_000 } as const;

/** Joins a path and its query; empty filters (undefined, null, '') are left out. */
export function buildUrl(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) value.forEach((item: string | number) => params.append(name, String(item)));
    else params.append(name, String(value));
  }
  const search = params.toString();
  return search ? `${path}${path.includes('?') ? '&' : '?'}${search}` : path;
}

function isFieldError(value: unknown): value is FieldError {
  return isRecord(value) && typeof value.path === 'string' && typeof value.message === 'string';
}

function fieldErrorsOf(data: unknown): FieldError[] {
  if (!isRecord(data) || !Array.isArray(data.errors)) return [];
  return data.errors.filter(isFieldError);
}

function stringField(data: unknown, name: string): string | null {
  return isRecord(data) && typeof data[name] === 'string' ? data[name] : null;
}

/** Applies the catalogue of SEED-SPEC section 8 to one failure: events, session, toast, log; then throws. */
function fail(facts: FailureFacts, data: unknown, options: RequestOptions): never {
  const { kind, message } = describeFailure(facts, getLocale());
  const error = new RequestError({ message, status: facts.status, code: facts.code, errors: fieldErrorsOf(data), url: facts.url, kind, data });

  if (kind === 'sessionEnded') {
    clearSession();
    emitRequestEvent('sessionEnded', { code: String(facts.code) });
  } else if (kind === 'loginMessage') {
    emitRequestEvent('loginMessage', { message });
  } else if (kind === 'mustChangePassword') {
    const body = options.body;
    emitRequestEvent('mustChangePassword', {
      userName: stringField(data, 'userName') ?? stringField(body, 'userName') ?? '',
      phoneMasked: stringField(data, 'phoneMasked'),
    });
  }
  // 602 and 603 are steps of the login, not failures: the login page asks for the code or the set-up instead of a toast.
  // 600 is the login message event (SEED-SPEC section 8), shown once by the login form: a toast would say it twice.
  const isShownByLogin = kind === 'loginMessage' || kind === 'secondFactorRequired' || kind === 'twoFactorSetupRequired';
  if (!options.silent && !isShownByLogin) showToast(kind === 'mustChangePassword' ? 'warning' : 'error', message);
  console.error('data request exception', { url: facts.url, status: facts.status, code: facts.code, message });
  throw error;
}

function isEnvelope(value: unknown): value is { code: number | string; message?: unknown; key?: unknown; data?: unknown } {
  return isRecord(value) && (typeof value.code === 'number' || typeof value.code === 'string');
}

async function send(path: string, options: RequestOptions, accept: string): Promise<{ response: Response; url: string }> {
  const url = buildUrl(path, options.query);
  const headers: Record<string, string> = { Accept: accept, 'Accept-Language': getLocale() };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.background) headers[BACKGROUND_REQUEST_HEADER] = '1';

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const forwardAbort = () => controller.abort();
  options.signal?.addEventListener('abort', forwardAbort);

  try {
    const response = await fetch(url, {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: controller.signal,
    });
    return { response, url };
  } catch (cause) {
    // A caller's own cancellation (react-query unmounts) is not a failure to report.
    if (options.signal?.aborted) throw cause;
    return fail({ status: timedOut ? 408 : 0, code: null, serverMessage: '', url }, null, options);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', forwardAbort);
  }
}

/** Seconds of a Retry-After header (delay-seconds form), or null. */
function retryAfterMs(response: Response): number | null {
  const seconds = Number(response.headers.get('Retry-After'));
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : null;
}

/** Waits `ms`, or rejects with the signal's reason when the caller cancels first. */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const cancel = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', cancel);
      resolve();
    }, ms);
    signal?.addEventListener('abort', cancel, { once: true });
  });
}

/**
 * `send`, and when the server sheds an idempotent call (HTTP 503) says "server busy, retrying" once
 * and sends it again after Retry-After or the back-off, whichever is longer, with jitter so shed
 * clients do not all come back at the same instant. The last 503 is answered like any failure.
 */
async function sendRetryingWhenBusy(path: string, options: RequestOptions, accept: string): Promise<{ response: Response; url: string }> {
  const idempotent = options.idempotent ?? (options.method ?? 'GET') === 'GET';
  for (let attempt = 0; ; attempt += 1) {
    const sent = await send(path, options, accept);
    if (sent.response.status !== 503 || !idempotent || attempt >= BUSY_RETRY.attempts) return sent;
    if (attempt === 0 && !options.silent) showToast('warning', translate('error.serverBusyRetrying', undefined, getLocale()));
    const backoff = BUSY_RETRY.baseDelayMs * 2 ** attempt;
    const delay = Math.min(BUSY_RETRY.maxDelayMs, Math.max(backoff, retryAfterMs(sent.response) ?? 0)) * (1 + Math.random() * 0.5);
    await pause(delay, options.signal);
  }
}

function parseJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

async function readJson(response: Response): Promise<unknown> {
  return parseJson(await response.text());
}

function unwrap<T>(body: unknown, response: Pick<Response, 'ok' | 'status'>, url: string, options: RequestOptions): T {
  if (isEnvelope(body)) {
    const serverMessage = typeof body.message === 'string' ? body.message : '';
    if (response.ok && String(body.code) === String(ErrorCode.Success)) return body.data as T;
    return fail(
      { status: response.status, code: body.code, serverMessage, serverKey: typeof body.key === 'string' ? body.key : null, url, requestId: stringField(body.data, 'requestId') },
      body.data,
      options,
    );
  }
  // A bare JSON answer (e.g. a health probe) is taken as the data itself when the status is fine.
  if (response.ok) return body as T;
  return fail({ status: response.status, code: null, serverMessage: '', url }, null, options);
}

/**
 * Calls the API and answers the envelope's `data`; every failure toasts (unless `silent`), logs
 * 'data request exception' and rejects with a RequestError. An idempotent call the server sheds
 * (503) is retried with back-off first.
 * @example const tree = await request<NavigationGroup[]>(API_PATHS.navigationTree);
 */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { response, url } = await sendRetryingWhenBusy(path, options, 'application/json');
  // The data is typed by the caller from the contract; the server validates against the same schemas.
  return unwrap<T>(await readJson(response), response, url, options);
}

export const http = {
  get<T>(path: string, query?: Query, options: Omit<RequestOptions, 'method' | 'query'> = {}): Promise<T> {
    return request<T>(path, { ...options, method: 'GET', query });
  },
  post<T>(path: string, body?: unknown, options: Omit<RequestOptions, 'method' | 'body'> = {}): Promise<T> {
    return request<T>(path, { ...options, method: 'POST', body });
  },
};

/** Reads an XMLHttpRequest's answer as `request` reads a fetch's (lib/upload.ts sends files with XHR). */
export function answerOfXhr<T>(xhr: XMLHttpRequest, url: string, options: RequestOptions): T {
  return unwrap<T>(parseJson(xhr.responseText), { ok: xhr.status >= 200 && xhr.status < 300, status: xhr.status }, url, options);
}

/** Fails a call that got no answer: 0 for a network error, 408 when the client gave up waiting. */
export function failWithoutAnswer(status: 0 | 408, url: string, options: RequestOptions): never {
  return fail({ status, code: null, serverMessage: '', url }, null, options);
}

export interface DownloadedFile {
  blob: Blob;
  filename: string;
}

/** Reads the file name of a Content-Disposition header; RFC 5987 `filename*` wins over `filename`. */
export function filenameFromContentDisposition(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  if (extended?.[2]) {
    try {
      return decodeURIComponent(extended[2].trim().replace(/^"|"$/g, ''));
    } catch {
      // Malformed escape: fall through to the plain parameter.
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/i.exec(header);
  const name = plain?.[2] ?? plain?.[1]?.trim();
  return name ? name : fallback;
}

/**
 * GETs a file (the Export calls). A JSON answer means the server refused: it is handled like any
 * other failure. The file name comes from Content-Disposition.
 */
export async function downloadFile(path: string, query?: Query, options: Omit<RequestOptions, 'method' | 'query' | 'body'> & { fallbackName?: string } = {}): Promise<DownloadedFile> {
  const { response, url } = await sendRetryingWhenBusy(path, { ...options, method: 'GET', query }, '*/*');
  const contentType = response.headers.get('Content-Type') ?? '';
  if (!response.ok || contentType.includes('application/json')) {
    const body = await readJson(response);
    unwrap<unknown>(body, response, url, options);
    // An envelope with code 200 instead of a file is still not a file.
    return fail({ status: response.status, code: null, serverMessage: '', url }, null, options);
  }
  const fallback = options.fallbackName ?? path.split('/').filter(Boolean).slice(-2).join('-');
  return { blob: await response.blob(), filename: filenameFromContentDisposition(response.headers.get('Content-Disposition'), fallback) };
}

/** How long a saved file's object URL outlives the click that saves it. */
export const SAVED_FILE_URL_MS = 60_000;

/** Hands a downloaded file to the browser's save dialog. */
export function saveFile(file: DownloadedFile): void {
  const href = URL.createObjectURL(file.blob);
  const anchor = document.createElement('a');
  anchor.href = href;
  anchor.download = file.filename;
  document.body.appendChild(anchor);
  anchor.click();
  anchor.remove();
  // The browser reads the blob after click() returns, in its own time: revoked at the next tick,
  // Chromium under load saved nothing and said nothing (an e2e template download timed out). A
  // minute covers a busy machine; the blob is freed then.
  setTimeout(() => URL.revokeObjectURL(href), SAVED_FILE_URL_MS);
}

/** Downloads and saves in one step; answers the saved file name. */
export async function download(path: string, query?: Query, options?: Parameters<typeof downloadFile>[2]): Promise<string> {
  const file = await downloadFile(path, query, options);
  saveFile(file);
  return file.filename;
}
