import { TOAST_SECONDS } from '@campus/contract';

import type { ToastApi, ToastLevel } from './toast-api';

export type { ToastApi, ToastLevel } from './toast-api';

/** The themed, localised instance of the mounted antd provider (AntdRoot), if one is mounted. */
let boundApi: ToastApi | null = null;

/**
 * Routes toasts through a message instance under antd's provider, so they follow the theme and locale.
 * Answers the unbinding, for when that provider unmounts (leaving the console for /login).
 */
export function bindToastApi(api: ToastApi): () => void {
  boundApi = api;
  return () => {
    if (boundApi === api) boundApi = null;
  };
}

/**
 * Shows a toast for TOAST_SECONDS (5 s, SEED-SPEC section 8); the same text is not stacked twice.
 * Outside antd's provider (/login is drawn without antd) antd's static message is downloaded on the
 * first toast, so the page's own bytes stay free of it.
 */
export function showToast(level: ToastLevel, content: string): void {
  const config = { content, duration: TOAST_SECONDS, key: `${level}:${content}` };
  if (boundApi) {
    boundApi[level](config);
    return;
  }
  void import('./static-toast').then(({ staticToast }) => staticToast()[level](config));
}
