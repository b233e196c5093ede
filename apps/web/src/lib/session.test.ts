import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { API_PATHS, SESSION_STORAGE_KEY, type LoginResponse } from '@campus/contract';
import { logOut } from './log-out';
import { clearSession, getToken, readSession, saveSession, sessionFromLogin } from './session';
import { STORAGE_KEYS } from './storage';
import { bindToastApi } from './toast';

const login: LoginResponse = {
  Token: 'tok-1',
  SchoolName: 'Sunshine Kindergarten',
  UserName: 'agent1',
  UserId: 7,
  SchoolId: 3,
  ClassId: 0,
  TokenTime: '2030-01-01T12:00:00Z',
  Frames: [{ ID: 101 }, { ID: 301 }],
};

function fillEveryKey(): void {
  saveSession(sessionFromLogin(login));
  window.sessionStorage.setItem(STORAGE_KEYS.tabs, JSON.stringify({ tabs: [], activeIndex: 'index' }));
  window.sessionStorage.setItem(STORAGE_KEYS.menuSelection, JSON.stringify({ groupId: 3, frameId: 301 }));
  window.sessionStorage.setItem(STORAGE_KEYS.menuData, '[]');
}

beforeEach(() => {
  const quiet = () => undefined;
  bindToastApi({ error: quiet, warning: quiet, success: quiet, info: quiet });
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('session', () => {
  it('keeps the login answer under SESSION_STORAGE_KEY', () => {
    saveSession(sessionFromLogin(login));
    expect(JSON.parse(window.sessionStorage.getItem(SESSION_STORAGE_KEY) ?? 'null')).toMatchObject({ token: 'tok-1', frameIds: [101, 301] });
    expect(getToken()).toBe('tok-1');
    expect(readSession()?.schoolName).toBe('Sunshine Kindergarten');
  });

  it('ignores a tampered entry', () => {
    window.sessionStorage.setItem(SESSION_STORAGE_KEY, '{"token":""}');
    expect(readSession()).toBeNull();
  });

  it('clears token, tabs, user info, authority, frame id and menu data, but not the language', () => {
    fillEveryKey();
    window.localStorage.setItem('campus-ops-locale', 'en');
    clearSession();
    for (const key of Object.values(STORAGE_KEYS)) expect(window.sessionStorage.getItem(key)).toBeNull();
    expect(window.localStorage.getItem('campus-ops-locale')).toBe('en');
  });
});

describe('logOut', () => {
  it('ends the session server-side with the token, then clears everything', async () => {
    fillEveryKey();
    const fetchMock = vi.fn().mockResolvedValue(new Response(JSON.stringify({ code: 200, message: 'ok', data: null })));
    vi.stubGlobal('fetch', fetchMock);
    await logOut();
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe(API_PATHS.logout);
    expect(init.method).toBe('POST');
    expect(init.headers).toMatchObject({ Authorization: 'Bearer tok-1' });
    for (const key of Object.values(STORAGE_KEYS)) expect(window.sessionStorage.getItem(key)).toBeNull();
  });

  it('still clears the session when the server cannot be reached', async () => {
    fillEveryKey();
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('offline')));
    await logOut();
    expect(readSession()).toBeNull();
  });
});
