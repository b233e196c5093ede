import { ALWAYS_ALLOWED_ROUTES, FRAME_BY_INDEX, SIGN_CARD_MODE_ROUTES } from '@campus/contract';
import { HOME_ROUTE, REDIRECT_ROUTE, REFRESH_ROUTE, decideBeforeShell, pathSegments, type RouteDecision } from '../lib/public-route-guard';

export { HOME_ROUTE, PUBLIC_ROUTES, REDIRECT_ROUTE, REFRESH_ROUTE, decideBeforeShell, pathSegments, type PublicRoute, type RouteDecision } from '../lib/public-route-guard';

const toHome = { action: 'redirect', to: `/${HOME_ROUTE}`, clearSession: false } as const;

export interface RouteGuardInput {
  pathname: string;
  hasToken: boolean;
  authorisedFrameIds: ReadonlySet<number>;
  /** undefined while the sign-card mode check is in flight. */
  signCardMode: boolean | undefined;
  isPageRegistered: (index: string) => boolean;
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
