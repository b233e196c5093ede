import { ALWAYS_ALLOWED_ROUTES, FRAME_BY_INDEX, SIGN_CARD_MODE_ROUTES } from '@campus/contract';

/** Routes outside the shell that need no login (SEED-SPEC section 2). */
export const PUBLIC_ROUTES = ['login', 'forget', 'reset', 'modified', 'fromily'] as const;
export type PublicRoute = (typeof PUBLIC_ROUTES)[number];

/** Shell helpers: /refresh reloads the current tab, /redirect/<route...> reloads and opens a route. */
export const REFRESH_ROUTE = 'refresh';
export const REDIRECT_ROUTE = 'redirect';
export const HOME_ROUTE = 'index';

export type RouteDecision =
  | { action: 'allow'; area: 'public'; route: PublicRoute }
  | { action: 'allow'; area: 'shell'; route: string }
  | { action: 'redirect'; to: string; clearSession: boolean }
  /** The answer depends on the sign-card mode, which has not arrived yet. */
  | { action: 'wait' };

export interface RouteGuardInput {
  pathname: string;
  hasToken: boolean;
  authorisedFrameIds: ReadonlySet<number>;
  /** undefined while the sign-card mode check is in flight. */
  signCardMode: boolean | undefined;
  isPageRegistered: (index: string) => boolean;
}

export function pathSegments(pathname: string): string[] {
  return pathname.split('/').filter(Boolean);
}

function isPublicRoute(route: string): route is PublicRoute {
  return (PUBLIC_ROUTES as readonly string[]).includes(route);
}

const toHome = { action: 'redirect', to: `/${HOME_ROUTE}`, clearSession: false } as const;

/**
 * The part of the guard that needs neither the page registry nor the session's frames: public pages
 * and a missing token. Null when the shell decides (decideRoute), so the entry chunk, which runs this
 * for /login, does not carry the declarations behind the registry.
 */
export function decideBeforeShell(pathname: string, hasToken: boolean): RouteDecision | null {
  const segments = pathSegments(pathname);
  const route = segments[0] ?? '';
  if (isPublicRoute(route) && segments.length === 1) {
    if (route === 'login' && hasToken) return toHome;
    return { action: 'allow', area: 'public', route };
  }
  if (!hasToken) return { action: 'redirect', to: '/login', clearSession: true };
  return null;
}

/**
 * The route guard of SEED-SPEC section 5, as a pure function of the path and the session:
 * - a route needing auth without a token: clear user info, authority and token, go to /login;
 * - with a token, /login goes to /index; /index, /personalInformation and /refresh always pass;
 * - any other page passes only if its frame's fixedId is among the authorised frame IDs;
 * - codeManageA/B are blocked while the sign-card mode is false;
 * - a declared frame whose page is not built yet, and any unknown path, go to /index.
 */
export function decideRoute(input: RouteGuardInput): RouteDecision {
  const beforeShell = decideBeforeShell(input.pathname, input.hasToken);
  if (beforeShell) return beforeShell;
  const segments = pathSegments(input.pathname);
  const route = segments[0] ?? '';
  if (route === REDIRECT_ROUTE && segments.length > 1) return { action: 'allow', area: 'shell', route };
  if (segments.length !== 1) return toHome;
  if ((ALWAYS_ALLOWED_ROUTES as readonly string[]).includes(route)) {
    return route === REFRESH_ROUTE || input.isPageRegistered(route) ? { action: 'allow', area: 'shell', route } : toHome;
  }

  const frame = FRAME_BY_INDEX.get(route);
  if (!frame || !input.authorisedFrameIds.has(frame.fixedId)) return toHome;
  if ((SIGN_CARD_MODE_ROUTES as readonly string[]).includes(route)) {
    if (input.signCardMode === undefined) return { action: 'wait' };
    if (!input.signCardMode) return toHome;
  }
  if (!input.isPageRegistered(route)) return toHome;
  return { action: 'allow', area: 'shell', route };
}
