import { App as AntdApp } from 'antd';
import { Suspense, useMemo } from 'react';
import { PageSpinner } from '../../components/page-spinner';
import { useLocation } from 'react-router';
import { useSession } from '../../lib/session';
import { isPageRegistered, pageOf } from '../../pages/registry';
import { useSignCardMode } from '../../hooks/use-navigation';
import { decideRoute } from '../route-guard';
import { ShellLayout } from './shell-layout';

/** Pages drawn over the whole window instead of in a tab of the shell. */
const FULL_SCREEN_ROUTES: ReadonlySet<string> = new Set(['displayLargeScreen']);

/**
 * The whole route guard for paths inside the console. It lives in the shell's chunk because it needs
 * the page registry (every declared frame); the entry only tells public pages and a missing token.
 */
export function ShellRoute() {
  const location = useLocation();
  const session = useSession();
  const signCardMode = useSignCardMode();
  const authorisedFrameIds = useMemo(() => new Set(session?.frameIds ?? []), [session]);
  const decision = decideRoute({ pathname: location.pathname, hasToken: session !== null, authorisedFrameIds, signCardMode, isPageRegistered });
  // The wall display fills the window without the shell (PRODUCT: "no shell"); the guard has allowed it.
  const fullScreen = decision?.action === 'allow' && FULL_SCREEN_ROUTES.has(decision.route) ? pageOf(decision.route) : undefined;
  if (fullScreen) {
    return (
      <AntdApp>
        <Suspense fallback={<PageSpinner />}>
          <fullScreen.Component />
        </Suspense>
      </AntdApp>
    );
  }
  // antd's App gives the console's pages their modal (App.useApp); public pages have no dialogs.
  return (
    <AntdApp>
      <ShellLayout decision={decision} />
    </AntdApp>
  );
}
