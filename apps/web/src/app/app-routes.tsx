import { Suspense, lazy, useEffect } from 'react';
import { Navigate, useLocation } from 'react-router';
import { PageSpinner } from '../components/page-spinner';
import { clearSession, useSession } from '../lib/session';
import { prefetchConsoleCode } from './prefetch-console';
import { PUBLIC_PAGES } from './public-pages';
import { decideBeforeShell } from '../lib/public-route-guard';

// The shell is its own chunk, with the rest of the guard and antd's provider: the login page downloads neither.
const ShellRoute = lazy(() =>
  Promise.all([import('../components/antd-root'), import('./layout/shell-route')]).then(([root, shell]) => ({ default: root.withAntdRoot(shell.ShellRoute) })),
);

function FullPageSpinner() {
  return (
    <div style={{ height: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
      <PageSpinner />
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
 * renders the shell, which applies the rest of the guard and stays mounted across its redirects
 * inside the console.
 */
export function AppRoutes() {
  const location = useLocation();
  const session = useSession();
  const decision = decideBeforeShell(location.pathname, session !== null, location.search);
  const isLoginForm = decision?.action === 'allow' && decision.area === 'public' && decision.route === 'login';
  useEffect(() => {
    if (isLoginForm) prefetchConsoleCode();
  }, [isLoginForm]);

  if (decision?.action === 'redirect' && decision.clearSession) return <LeaveToLogin to={decision.to} />;
  if (decision?.action === 'allow' && decision.area === 'public') {
    const Page = PUBLIC_PAGES[decision.route];
    return (
      <Suspense fallback={<FullPageSpinner />}>
        <Page />
      </Suspense>
    );
  }
  return (
    <Suspense fallback={<FullPageSpinner />}>
      <ShellRoute />
    </Suspense>
  );
}
