import type { ReactNode } from 'react';
import { App, ConfigProvider } from 'antd';

/**
 * antd's context for component tests. Zero-runtime theming skips generating CSS-in-JS styles on every
 * render (jsdom applies no styles anyway) and motion off ends transitions at once: together they take
 * about a third off the web tests' CPU.
 */
export function TestApp({ children }: { children: ReactNode }) {
  return (
    <ConfigProvider theme={{ zeroRuntime: true, token: { motion: false } }}>
      <App>{children}</App>
    </ConfigProvider>
  );
}
