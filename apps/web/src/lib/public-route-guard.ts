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

/** The query parameter of /login naming where a link pointed before sign-in was asked for. */
export const LOGIN_TARGET_PARAM = 'redirect';

/**
 * /login, remembering the console address a link pointed at (a link opened in a new browser tab has
 * no session yet), so sign-in lands there; the home page needs no reminder.
 */
export function loginPathFor(target: string): string {
  const route = pathSegments(target.split('?')[0] ?? '')[0] ?? '';
  if (route === '' || route === HOME_ROUTE) return '/login';
  return `/login?${new URLSearchParams({ [LOGIN_TARGET_PARAM]: target }).toString()}`;
}

/**
 * Where sign-in goes: the remembered console address when it is one (a path of this site, not a
 * public page), else the home page. The shell's guard still checks the account's grant on arrival.
 */
export function pathAfterLogin(search: string): string {
  const target = new URLSearchParams(search).get(LOGIN_TARGET_PARAM) ?? '';
  // Only a path of this origin: '//host' and '/\\host' would leave the site.
  if (!target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return `/${HOME_ROUTE}`;
  const route = pathSegments(target.split('?')[0] ?? '')[0] ?? '';
  return route === '' || isPublicRoute(route) ? `/${HOME_ROUTE}` : target;
}

/**
 * The part of the guard that needs neither the page registry nor the session's frames: public pages
 * and a missing token. Null when the shell decides (decideRoute), so the entry chunk, which runs this
 * for /login, does not carry the declarations behind the registry. `search` is the address's query,
 * kept with the path /login remembers.
 */
export function decideBeforeShell(pathname: string, hasToken: boolean, search = ''): RouteDecision | null {
  const segments = pathSegments(pathname);
  const route = segments[0] ?? '';
  if (isPublicRoute(route) && segments.length === 1) {
    if (route === 'login' && hasToken) return toHome;
    return { action: 'allow', area: 'public', route };
  }
  if (!hasToken) return { action: 'redirect', to: loginPathFor(`${pathname}${search}`), clearSession: true };
  return null;
}

