import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { PublicRoute } from './public-route-guard';

/** The pages outside the shell, each its own chunk. */
export const PUBLIC_PAGES: Record<PublicRoute, LazyExoticComponent<ComponentType>> = {
  login: lazy(() => import('../pages/login/login-page')),
  forget: lazy(() => import('../pages/forget/forget-page')),
  reset: lazy(() => import('../pages/reset/reset-page')),
  modified: lazy(() => import('../pages/modified/modified-page')),
  fromily: lazy(() => import('../pages/fromily/fromily-page')),
};
