/**
 * The part of the route guard the entry runs (public pages, a missing token), apart from route-guard.ts
 * so /login does not download the frames table the rest of the guard reads.
 */
/** Routes outside the shell that need no login (SEED-SPEC section 2), and the questionnaire respondents' page. */
export const PUBLIC_ROUTES = ['login', 'forget', 'reset', 'modified', 'fromily', 'survey'] as const;
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

