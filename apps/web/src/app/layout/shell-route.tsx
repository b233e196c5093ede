import { App as AntdApp } from 'antd';
import { useMemo } from 'react';
import { useLocation } from 'react-router';
import { useSession } from '../../lib/session';
import { isPageRegistered } from '../../pages/registry';
import { useSignCardMode } from '../../hooks/use-navigation';
import { decideRoute } from '../route-guard';
import { ShellLayout } from './shell-layout';

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
  // antd's App gives the console's pages their modal (App.useApp); public pages have no dialogs.
  return (
    <AntdApp>
      <ShellLayout decision={decision} />
    </AntdApp>
  );
}
