import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { PublicRoute } from '../lib/public-route-guard';

/** A page drawn with antd: its chunk and antd's provider (AntdRoot) are downloaded together. */
function withAntd(load: () => Promise<{ default: ComponentType }>): LazyExoticComponent<ComponentType> {
  return lazy(() => Promise.all([import('../components/antd-root'), load()]).then(([root, page]) => ({ default: root.withAntdRoot(page.default) })));
}

/**
 * The pages outside the shell, each its own chunk. /login is plain markup without antd: it is the
 * first page most visits open, and antd's styling engine alone would double its bytes.
 */
export const PUBLIC_PAGES: Record<PublicRoute, LazyExoticComponent<ComponentType>> = {
  login: lazy(() => import('../pages/login/login-page')),
  forget: withAntd(() => import('../pages/forget/forget-page')),
  reset: withAntd(() => import('../pages/reset/reset-page')),
  modified: withAntd(() => import('../pages/modified/modified-page')),
  fromily: withAntd(() => import('../pages/fromily/fromily-page')),
  survey: withAntd(() => import('../pages/survey/survey-page')),
};
