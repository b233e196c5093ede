import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ConfigProvider, message, type ThemeConfig } from 'antd';
import { useEffect, useState } from 'react';
import { BrowserRouter } from 'react-router';
import { antdLocaleOf, useLocale } from '../lib/i18n';
import { RequestError } from '../lib/request';
import { bindToastApi } from '../lib/toast';
import { AppRoutes } from './app-routes';
import { RequestEventBridge } from './request-event-bridge';

const THEME: ThemeConfig = {
  token: {
    colorPrimary: '#1677ff',
    borderRadius: 6,
    fontFamily:
      "-apple-system, BlinkMacSystemFont, 'Segoe UI', 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', 'Helvetica Neue', Arial, sans-serif",
  },
  components: {
    Menu: { itemHeight: 38, itemBorderRadius: 6, itemSelectedBg: '#e8f1ff' },
  },
};

function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // A 4xx will not change by asking again, and the request client has already shown it.
        retry: (failureCount, error) => failureCount < 1 && !(error instanceof RequestError && error.status >= 400 && error.status < 500),
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
}

/**
 * Routes toasts through a message instance under the provider, so they follow the theme and locale.
 * Not antd's App: its modal and notification hooks are the shell's (ShellRoute), not /login's bytes.
 */
function ToastHost() {
  const [messageApi, contextHolder] = message.useMessage();
  useEffect(() => bindToastApi(messageApi), [messageApi]);
  return contextHolder;
}

export function App() {
  const locale = useLocale();
  const [queryClient] = useState(createQueryClient);
  return (
    <ConfigProvider locale={antdLocaleOf(locale)} theme={THEME}>
      <ToastHost />
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          <RequestEventBridge />
          <AppRoutes />
        </BrowserRouter>
      </QueryClientProvider>
    </ConfigProvider>
  );
}
