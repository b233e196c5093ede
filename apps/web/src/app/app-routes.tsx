import { Spin } from 'antd';
import { Suspense, lazy, useEffect, useMemo } from 'react';
import { Navigate, useLocation } from 'react-router';
import { isPageRegistered } from '../pages/registry';
import { clearSession, useSession } from '../lib/session';
import { useSignCardMode } from './navigation/navigation-queries';
import { PUBLIC_PAGES } from './public-pages';
import { decideRoute } from './route-guard';

// The shell is its own chunk: the login page does not download the console.
const ShellLayout = lazy(() => import('./layout/shell-layout').then((module) => ({ default: module.ShellLayout })));

function FullPageSpinner() {
  return (
    <div style={{ height: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
      <Spin size="large" />
    </div>
  );
}

/** Whatever is left of a session without a token (user info, authority, tabs) goes before /login. */
function LeaveToLogin({ to }: { to: string }) {
  useEffect(() => clearSession(), []);
  return <Navigate to={to} replace />;
}

/**
 * Applies the route guard to every location. Public pages render on their own; every other path
 * renders the shell, which stays mounted across guard redirects inside the console.
 */
export function AppRoutes() {
  const location = useLocation();
  const session = useSession();
  const signCardMode = useSignCardMode();
  const authorisedFrameIds = useMemo(() => new Set(session?.frameIds ?? []), [session]);
  const decision = decideRoute({ pathname: location.pathname, hasToken: session !== null, authorisedFrameIds, signCardMode, isPageRegistered });

  if (decision.action === 'redirect' && decision.clearSession) return <LeaveToLogin to={decision.to} />;
  if (decision.action === 'allow' && decision.area === 'public') {
    const Page = PUBLIC_PAGES[decision.route];
    return (
      <Suspense fallback={<FullPageSpinner />}>
        <Page />
      </Suspense>
    );
  }
  return (
    <Suspense fallback={<FullPageSpinner />}>
      <ShellLayout decision={decision} />
    </Suspense>
  );
}
