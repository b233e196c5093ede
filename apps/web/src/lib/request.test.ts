import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SESSION_STORAGE_KEY } from '@campus/contract';
import { setLocale } from './i18n';
import { RequestError, SAVED_FILE_URL_MS, buildUrl, downloadFile, filenameFromContentDisposition, http, saveFile } from './request';
import { onRequestEvent } from './request-events';
import { readSession, saveSession, type Session } from './session';
import { STORAGE_KEYS } from './storage';
import { bindToastApi, type ToastApi } from './toast';

const session: Session = {
  token: 'tok-123',
  schoolName: 'HQ',
  userName: 'admin',
  userId: 1,
  schoolId: 0,
  classId: 0,
  tokenTime: '2030-01-01T00:00:00Z',
  frameIds: [101, 805],
};

function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
}

let toasts: { level: string; content: string }[];
let fetchMock: ReturnType<typeof vi.fn>;

beforeEach(() => {
  setLocale('en');
  toasts = [];
  const record = (level: string) => (config: { content: string }) => toasts.push({ level, content: config.content });
  const fake: ToastApi = { error: record('error'), warning: record('warning'), success: record('success'), info: record('info') };
  bindToastApi(fake);
  fetchMock = vi.fn();
  vi.stubGlobal('fetch', fetchMock);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  setLocale('zh-CN');
});

async function failureOf(promise: Promise<unknown>): Promise<RequestError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof RequestError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

describe('request client', () => {
  it('answers data for code 200 and sends token, JSON and language', async () => {
    saveSession(session);
    fetchMock.mockResolvedValue(jsonResponse(200, { code: 200, message: 'ok', data: { a: 1 } }));
    await expect(http.post('/api/X/Do', { b: 2 })).resolves.toEqual({ a: 1 });
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/X/Do');
    expect(init.headers).toMatchObject({ Authorization: 'Bearer tok-123', 'Content-Type': 'application/json', 'Accept-Language': 'en' });
    expect(init.body).toBe('{"b":2}');
  });

  it('turns a failure into { status, code, message, errors }, toasts it and logs "data request exception"', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(400, { code: 400, message: 'invalid', data: { errors: [{ path: 'name', message: 'required' }] } }),
    );
    const error = await failureOf(http.post('/api/User/UpdateLoginUserInfo', {}));
    expect(error).toMatchObject({ status: 400, code: 400, message: 'request error: invalid', errors: [{ path: 'name', message: 'required' }] });
    expect(toasts).toEqual([{ level: 'error', content: 'request error: invalid' }]);
    expect(console.error).toHaveBeenCalledWith('data request exception', expect.objectContaining({ status: 400 }));
  });

  it('marks a background call with X-Background: 1, and only that call (ASVS 3.3.2)', async () => {
    saveSession(session);
    fetchMock.mockImplementation(() => Promise.resolve(jsonResponse(200, { code: 200, message: 'ok', data: null })));
    await http.get('/api/Home/GetBadgeCounts', undefined, { background: true });
    await http.get('/api/Home/GetNavigationTree');
    const [background, foreground] = fetchMock.mock.calls.map((call) => (call as [string, RequestInit])[1].headers as Record<string, string>);
    expect(background).toMatchObject({ 'X-Background': '1', Authorization: 'Bearer tok-123' });
    expect(foreground).not.toHaveProperty('X-Background');
  });

  it('ends the session when a background call answers that it expired, as any call does', async () => {
    saveSession(session);
    const ended = vi.fn();
    const stop = onRequestEvent('sessionEnded', ended);
    fetchMock.mockResolvedValue(jsonResponse(401, { code: '10011', message: 'token expired', data: null }));
    const error = await failureOf(http.get('/api/Home/GetBadgeCounts', undefined, { silent: true, background: true }));
    stop();
    expect(error.kind).toBe('sessionEnded');
    expect(readSession()).toBeNull();
    expect(ended).toHaveBeenCalledWith({ code: '10011' });
  });

  it.each(['10010', '10011'])('clears the whole session and announces it for code %s', async (code) => {
    saveSession(session);
    window.sessionStorage.setItem(STORAGE_KEYS.tabs, '[]');
    const ended = vi.fn();
    const stop = onRequestEvent('sessionEnded', ended);
    fetchMock.mockResolvedValue(jsonResponse(401, { code, message: 'token invalid', data: null }));
    const error = await failureOf(http.get('/api/Home/GetNavigationTree'));
    stop();
    expect(error.kind).toBe('sessionEnded');
    expect(readSession()).toBeNull();
    expect(window.sessionStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    expect(window.sessionStorage.getItem(STORAGE_KEYS.tabs)).toBeNull();
    expect(ended).toHaveBeenCalledWith({ code });
  });

  it('raises the login message event with "password error" for code 600', async () => {
    const listener = vi.fn();
    const stop = onRequestEvent('loginMessage', listener);
    fetchMock.mockResolvedValue(jsonResponse(200, { code: 600, message: 'password error', data: null }));
    const error = await failureOf(http.post('/api/Account/Login_web', { userName: 'admin' }));
    stop();
    expect(error).toMatchObject({ code: 600, message: 'password error', kind: 'loginMessage' });
    expect(listener).toHaveBeenCalledWith({ message: 'password error' });
    // Once, on the login form: never a toast beside it (a wrong captcha read twice).
    expect(toasts).toEqual([]);
  });

  it('raises the verify-phone event with the account for code 601', async () => {
    const listener = vi.fn();
    const stop = onRequestEvent('mustChangePassword', listener);
    fetchMock.mockResolvedValue(jsonResponse(200, { code: 601, message: 'must change', data: { userName: 'admin', phoneMasked: '138****0000' } }));
    await failureOf(http.post('/api/Account/Login_web', { userName: 'admin' }));
    stop();
    expect(listener).toHaveBeenCalledWith({ userName: 'admin', phoneMasked: '138****0000' });
    expect(toasts).toEqual([{ level: 'warning', content: 'verify your phone and set a new password' }]);
  });

  it('rejects a 602 with its challenge and without a toast: the login page asks for the code', async () => {
    const data = { challenge: 'abc', expiresAt: '2026-03-02T01:05:00.000Z' };
    fetchMock.mockResolvedValue(jsonResponse(200, { code: 602, message: 'enter the code', data }));
    const error = await failureOf(http.post('/api/Account/Login_web', { userName: 'admin' }));
    expect(error).toMatchObject({ code: 602, kind: 'secondFactorRequired', data });
    expect(toasts).toEqual([]);
  });

  it('falls back to the posted user name when a 601 carries no data', async () => {
    const listener = vi.fn();
    const stop = onRequestEvent('mustChangePassword', listener);
    fetchMock.mockResolvedValue(jsonResponse(200, { code: 601, message: 'must change', data: null }));
    await failureOf(http.post('/api/Account/Login_web', { userName: 'sales1' }));
    stop();
    expect(listener).toHaveBeenCalledWith({ userName: 'sales1', phoneMasked: null });
  });

  it('includes the url for a 404 and stays quiet when silent', async () => {
    fetchMock.mockResolvedValue(new Response('not here', { status: 404 }));
    const error = await failureOf(http.get('/api/Home/GetBadgeCounts', undefined, { silent: true }));
    expect(error.message).toBe('address not found: /api/Home/GetBadgeCounts');
    expect(toasts).toEqual([]);
    expect(console.error).toHaveBeenCalled();
  });

  it('reports a dropped connection as a network error with status 0', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const error = await failureOf(http.get('/api/health'));
    expect(error).toMatchObject({ status: 0, kind: 'network' });
  });

  it('gives up after the timeout with status 408', async () => {
    fetchMock.mockImplementation(
      (_url: string, init: RequestInit) =>
        new Promise((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))),
    );
    const error = await failureOf(http.get('/api/slow', undefined, { timeoutMs: 5 }));
    expect(error).toMatchObject({ status: 408, message: 'timeout' });
  });

  it('takes a bare JSON answer as data', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { status: 'ok' }));
    await expect(http.get('/api/health')).resolves.toEqual({ status: 'ok' });
  });
});

describe('buildUrl', () => {
  it('omits empty filters and repeats arrays', () => {
    expect(buildUrl('/api/School/Export', { name: '', state: -1, ids: [1, 2], area: undefined, city: null, maxCount: 100 })).toBe(
      '/api/School/Export?state=-1&ids=1&ids=2&maxCount=100',
    );
  });
});

describe('downloadFile', () => {
  it('answers the blob with the name from Content-Disposition', async () => {
    fetchMock.mockResolvedValue(
      new Response('xlsx-bytes', {
        status: 200,
        headers: {
          'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          'Content-Disposition': "attachment; filename=\"schools.xlsx\"; filename*=UTF-8''%E5%AD%A6%E6%A0%A1.xlsx",
        },
      }),
    );
    const file = await downloadFile('/api/School/Export', { maxCount: 1000 });
    expect(file.filename).toBe('学校.xlsx');
    expect(await file.blob.text()).toBe('xlsx-bytes');
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/School/Export?maxCount=1000');
  });

  it('handles a refusal in JSON like any other failure', async () => {
    fetchMock.mockResolvedValue(jsonResponse(403, { code: 403, message: 'missing button export', data: null }));
    const error = await failureOf(downloadFile('/api/School/Export'));
    expect(error).toMatchObject({ status: 403, message: 'access denied' });
  });
});

describe('saveFile', () => {
  it('keeps the object URL until the browser has had time to read it', () => {
    vi.useFakeTimers();
    const create = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:saved');
    const revoke = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    try {
      saveFile({ blob: new Blob(['x']), filename: 'template.xlsx' });
      expect(click).toHaveBeenCalledTimes(1);
      vi.advanceTimersByTime(1_000);
      expect(revoke).not.toHaveBeenCalled();
      vi.advanceTimersByTime(SAVED_FILE_URL_MS);
      expect(revoke).toHaveBeenCalledWith('blob:saved');
    } finally {
      create.mockRestore();
      revoke.mockRestore();
      click.mockRestore();
      vi.useRealTimers();
    }
  });
});

describe('filenameFromContentDisposition', () => {
  it.each([
    ['attachment; filename="a b.xlsx"', 'a b.xlsx'],
    ['attachment; filename=plain.csv', 'plain.csv'],
    ["attachment; filename*=UTF-8''%E9%80%80%E6%AC%BE.xlsx", '退款.xlsx'],
    [null, 'fallback.xlsx'],
    ['inline', 'fallback.xlsx'],
  ])('reads %s', (header, expected) => {
    expect(filenameFromContentDisposition(header, 'fallback.xlsx')).toBe(expected);
  });
});

describe('a server that sheds load (HTTP 503)', () => {
  const busy = () => jsonResponse(503, { code: 503, message: 'the server is busy; please try again in a moment', key: 'error.serverBusy', data: null }, { 'Retry-After': '2' });
  const fine = () => jsonResponse(200, { code: 200, message: 'ok', data: { items: [] } });

  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('says the server is busy once and retries an idempotent read after Retry-After, with back-off', async () => {
    fetchMock.mockResolvedValueOnce(busy()).mockResolvedValueOnce(busy()).mockResolvedValueOnce(fine());
    const answer = http.post('/api/School/Search', { pageIndex: 1 }, { idempotent: true });
    await vi.advanceTimersByTimeAsync(1999);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(toasts).toEqual([{ level: 'warning', content: 'the server is busy, retrying…' }]);
    // Retry-After (2 s) at least, then the doubled back-off; jitter adds up to half of it.
    await vi.advanceTimersByTimeAsync(1001 + 2000 * 0.5);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(2000 * 1.5);
    await expect(answer).resolves.toEqual({ items: [] });
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(toasts).toHaveLength(1);
  });

  it('gives up after the last retry with "server busy"', async () => {
    fetchMock.mockImplementation(async () => busy());
    const failure = failureOf(http.get('/api/School/Get', { id: 1 }));
    await vi.advanceTimersByTimeAsync(60_000);
    const error = await failure;
    expect(fetchMock).toHaveBeenCalledTimes(4);
    expect(error).toMatchObject({ status: 503, code: 503, message: 'the server is busy, please try again in a moment' });
    expect(toasts.at(-1)).toEqual({ level: 'error', content: 'the server is busy, please try again in a moment' });
  });

  it('never sends a write again', async () => {
    fetchMock.mockImplementation(async () => busy());
    const error = await failureOf(http.post('/api/School/Add', { name: 'x' }));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(error.status).toBe(503);
    expect(toasts).toEqual([{ level: 'error', content: 'the server is busy, please try again in a moment' }]);
  });

  it('says a write that lost a deadlock did not go through, not that the server is busy', async () => {
    const collided = { code: 503, message: 'the same data was being changed at the same moment; this change did not go through; please try again', key: 'error.writeCollided', data: null };
    fetchMock.mockResolvedValueOnce(jsonResponse(503, collided, { 'Retry-After': '1' }));
    const error = await failureOf(http.post('/api/Device/Add', { serialNumber: 'x' }));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(toasts).toEqual([{ level: 'error', content: 'the same data was being changed at the same moment; this change did not go through, please try again' }]);
    expect(error.status).toBe(503);
  });
});
