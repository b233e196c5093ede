/** What shows a toast: antd's message API, bound by the provider (toast.ts) or made on demand (static-toast.tsx). Apart so neither imports the other. */
export type ToastLevel = 'error' | 'warning' | 'success' | 'info';
export type ToastApi = Record<ToastLevel, (config: { content: string; duration: number; key?: string }) => unknown>;
