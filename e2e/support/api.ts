/**
 * Direct API calls the journeys use to derive what the browser must show (the server is the
 * authority on grants and scope), never to drive the journey itself.
 */
import { createHash } from 'node:crypto';
import { baseUrl, CAPTCHA_CODE } from './browser';

export const ACCOUNTS = {
  admin: { userName: 'admin', password: 'Admin@123' },
  agent1: { userName: 'agent1', password: 'Demo@123' },
  agent2: { userName: 'agent2', password: 'Demo@123' },
} as const;
export type AccountName = keyof typeof ACCOUNTS;

interface Envelope<T> {
  code: number | string;
  message: string;
  data: T;
}

export interface NavigationFrame {
  fixedId: number;
  index: string;
  title: string;
  titleEn: string;
  authorised: boolean;
  buttons: string[];
}

export interface NavigationGroup {
  id: number;
  key: string;
  title: string;
  titleEn: string;
  children: NavigationFrame[];
}

/** One API call answering the envelope's data; anything but code 200 throws. */
export async function call<T>(path: string, init: RequestInit = {}, token?: string): Promise<T> {
  const headers = new Headers(init.headers);
  if (init.body && !headers.has('content-type')) headers.set('content-type', 'application/json');
  if (token) headers.set('authorization', `Bearer ${token}`);
  const res = await fetch(`${baseUrl()}${path}`, { ...init, headers });
  const body = (await res.json()) as Envelope<T>;
  if (!res.ok || body.code !== 200) throw new Error(`${path} answered HTTP ${res.status} code ${body.code}: ${body.message}`);
  return body.data;
}

export const md5 = (text: string) => createHash('md5').update(text).digest('hex');

/** Logs in through the API (captcha answer CAPTCHA_FIXED_CODE) and answers the token. */
export async function apiLogin(account: AccountName): Promise<string> {
  const { userName, password } = ACCOUNTS[account];
  const { vcId } = await call<{ vcId: string }>('/api/Account/GetVerificationCode');
  const answer = await call<{ Token: string }>('/api/Account/Login_web', {
    method: 'POST',
    body: JSON.stringify({ userName, password: md5(password), vcId, vcCode: CAPTCHA_CODE }),
  });
  return answer.Token;
}

export const getNavigationTree = (token: string) => call<NavigationGroup[]>('/api/Home/GetNavigationTree', {}, token);

export const getLoginUserInfo = (token: string) => call<{ name: string; loginName: string; type: string }>('/api/User/GetLoginUserInfo', {}, token);

/** The frames (route names) the server authorises, by group key. */
export function authorisedFrames(tree: NavigationGroup[]): Map<string, Set<string>> {
  return new Map(tree.map((group) => [group.key, new Set(group.children.filter((frame) => frame.authorised).map((frame) => frame.index))]));
}

export interface SchoolRow {
  id: number;
  schoolName: string;
  contactName: string | null;
  [field: string]: unknown;
}

/** The first page (20, the web's default) of the schools the token's user sees, by name when given. */
export async function searchSchools(token: string, schoolName?: string): Promise<{ items: SchoolRow[]; total: number }> {
  const body = { pageIndex: 1, pageSize: 20, ...(schoolName ? { schoolName } : {}) };
  return call('/api/School/Search?view=schoolManage', { method: 'POST', body: JSON.stringify(body) }, token);
}

/** The first page of a family's rows the token's user sees through one page (`view`), with filters. */
export function searchRows<T = Record<string, unknown>>(token: string, family: string, view: string, filters: Record<string, unknown>): Promise<{ items: T[]; total: number }> {
  return call(`/api/${family}/Search?view=${view}`, { method: 'POST', body: JSON.stringify({ pageIndex: 1, pageSize: 20, ...filters }) }, token);
}

/** Adds a company administrator account that signs in with `password` (no forced change), as admin. */
export async function addCompanyAccount(adminToken: string, account: { loginName: string; password: string; name: string; phoneNum: string }): Promise<void> {
  await call('/api/CompanyUser/Add', {
    method: 'POST',
    body: JSON.stringify({ ...account, password: md5(account.password), type: 'company', mustChangePassword: false }),
  }, adminToken);
}

/**
 * Gives a parent the app password, as support does on parentUser. Journeys running side by side may
 * pick the same demo parent: an update refused for a stale version (HTTP 409) reads the row again.
 */
export async function giveParentAppPassword(adminToken: string, parentId: number, password: string): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    const { version } = await call<{ version: number }>(`/api/Parent/Get?view=parentUser&id=${parentId}`, {}, adminToken);
    try {
      await call('/api/Parent/Update?view=parentUser', { method: 'POST', body: JSON.stringify({ id: parentId, version, password: md5(password) }) }, adminToken);
      return;
    } catch (error) {
      if (attempt === 3 || !(error instanceof Error && error.message.includes('HTTP 409'))) throw error;
    }
  }
}
