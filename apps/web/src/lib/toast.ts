import { message as staticMessage } from 'antd';
import { TOAST_SECONDS } from '@campus/contract';

export type ToastLevel = 'error' | 'warning' | 'success' | 'info';
export type ToastApi = Record<ToastLevel, (config: { content: string; duration: number; key?: string }) => unknown>;

// The static antd API works before the provider mounts; App binds its themed, localised instance.
let toastApi: ToastApi = staticMessage;

/** Lets the app route toasts through antd's `App.useApp().message`, which follows the theme. */
export function bindToastApi(api: ToastApi): void {
  toastApi = api;
}

/** Shows a toast for TOAST_SECONDS (5 s, SEED-SPEC section 8); the same text is not stacked twice. */
export function showToast(level: ToastLevel, content: string): void {
  toastApi[level]({ content, duration: TOAST_SECONDS, key: `${level}:${content}` });
}
