import { describe, expect, it } from 'vitest';
import { frameOf } from '@campus/contract';
import { pathAfterLogin } from '../lib/public-route-guard';
import { decideBeforeShell, decideRoute, type RouteGuardInput } from './route-guard';

const built = new Set(['index', 'personalInformation', 'schoolManage', 'codeManageA', 'codeManageB']);
const input = (overrides: Partial<RouteGuardInput>): RouteGuardInput => ({
  pathname: '/index',
  hasToken: true,
  authorisedFrameIds: new Set([frameOf('schoolManage').fixedId, frameOf('codeManageA').fixedId, frameOf('studentInfo').fixedId]),
  signCardMode: true,
  isPageRegistered: (index) => built.has(index),
  ...overrides,
});
const toHome = { action: 'redirect', to: '/index', clearSession: false };

describe('decideRoute (SEED-SPEC section 5)', () => {
  it.each(['/index', '/'])('sends %s to /login and clears the session without a token', (pathname) => {
    expect(decideRoute(input({ pathname, hasToken: false }))).toEqual({ action: 'redirect', to: '/login', clearSession: true });
  });

  it.each(['/schoolManage', '/personalInformation', '/refresh', '/nowhere'])('sends %s to /login remembering it, and clears the session without a token', (pathname) => {
    expect(decideRoute(input({ pathname, hasToken: false }))).toEqual({ action: 'redirect', to: `/login?redirect=${encodeURIComponent(pathname)}`, clearSession: true });
  });

  it.each(['login', 'forget', 'reset', 'modified', 'fromily', 'survey'])('lets /%s through without a token', (route) => {
    expect(decideRoute(input({ pathname: `/${route}`, hasToken: false }))).toEqual({ action: 'allow', area: 'public', route });
  });

  it('sends /login to /index when a token is stored', () => {
    expect(decideRoute(input({ pathname: '/login' }))).toEqual(toHome);
  });

  it.each(['forget', 'reset', 'modified', 'fromily'])('keeps /%s reachable with a token', (route) => {
    expect(decideRoute(input({ pathname: `/${route}` }))).toMatchObject({ action: 'allow', area: 'public' });
  });

  it.each(['/index', '/personalInformation', '/refresh'])('always allows %s, even with no authorised frame', (pathname) => {
    expect(decideRoute(input({ pathname, authorisedFrameIds: new Set() }))).toMatchObject({ action: 'allow', area: 'shell' });
  });

  it('allows a built page whose frame is authorised', () => {
    expect(decideRoute(input({ pathname: '/schoolManage' }))).toEqual({ action: 'allow', area: 'shell', route: 'schoolManage' });
  });

  it('sends a page whose frame is not authorised to /index', () => {
    expect(decideRoute(input({ pathname: '/schoolManage', authorisedFrameIds: new Set([frameOf('studentInfo').fixedId]) }))).toEqual(toHome);
  });

  it('sends an authorised frame whose page is not built yet to /index', () => {
    expect(decideRoute(input({ pathname: '/studentInfo' }))).toEqual(toHome);
  });

  it.each(['/nowhere', '/', '/index/extra', '/login/extra'])('sends the unknown path %s to /index', (pathname) => {
    expect(decideRoute(input({ pathname }))).toEqual(toHome);
  });

  it('blocks codeManageA while the sign-card mode is false', () => {
    expect(decideRoute(input({ pathname: '/codeManageA', signCardMode: false }))).toEqual(toHome);
    expect(decideRoute(input({ pathname: '/codeManageA', signCardMode: true }))).toMatchObject({ action: 'allow' });
  });

  it('waits for the sign-card mode before deciding on codeManageA', () => {
    expect(decideRoute(input({ pathname: '/codeManageA', signCardMode: undefined }))).toEqual({ action: 'wait' });
  });

  it('still requires the frame grant for codeManageB when sign-card mode is on', () => {
    expect(decideRoute(input({ pathname: '/codeManageB', signCardMode: true }))).toEqual(toHome);
  });

  it('lets the /redirect helper through for the shell to resolve', () => {
    expect(decideRoute(input({ pathname: '/redirect/schoolManage' }))).toEqual({ action: 'allow', area: 'shell', route: 'redirect' });
  });

  it('ignores a trailing slash', () => {
    expect(decideRoute(input({ pathname: '/schoolManage/' }))).toMatchObject({ action: 'allow', route: 'schoolManage' });
  });
});

describe('decideBeforeShell (the entry part of the guard)', () => {
  it('decides public pages and a missing token, and leaves every console path to the shell', () => {
    expect(decideBeforeShell('/login', false)).toEqual({ action: 'allow', area: 'public', route: 'login' });
    expect(decideBeforeShell('/login', true)).toEqual({ action: 'redirect', to: '/index', clearSession: false });
    expect(decideBeforeShell('/schoolManage', false)).toEqual({ action: 'redirect', to: '/login?redirect=%2FschoolManage', clearSession: true });
    expect(decideBeforeShell('/schoolManage', true)).toBeNull();
    expect(decideBeforeShell('/no/such/path', true)).toBeNull();
  });
});

describe('a link opened without a session (issue 26)', () => {
  it('keeps the address with its filters through /login and lands there after sign-in', () => {
    const decision = decideBeforeShell('/refundManage', false, '?school=1');
    expect(decision).toEqual({ action: 'redirect', to: '/login?redirect=%2FrefundManage%3Fschool%3D1', clearSession: true });
    const to = decision?.action === 'redirect' ? decision.to : '';
    expect(pathAfterLogin(to.slice(to.indexOf('?')))).toBe('/refundManage?school=1');
  });

  it('lands on the home page for anything that is not a console address of this site', () => {
    for (const target of ['//evil.example/x', '/\\evil.example', 'https://evil.example/', '/login', '/reset?x=1', '', 'schoolManage']) {
      expect(pathAfterLogin(`?redirect=${encodeURIComponent(target)}`), target).toBe('/index');
    }
    expect(pathAfterLogin('')).toBe('/index');
  });
});
