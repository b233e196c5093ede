import { ConfigProvider, message } from 'antd';
import { useEffect, type ComponentType, type ReactNode } from 'react';
import { antdLocaleOf, useLocale } from '../lib/i18n';
import { THEME } from '../lib/theme';
import { bindToastApi } from '../lib/toast';

/** Routes toasts through a message instance under the provider, so they follow the theme and locale. */
function ToastHost() {
  const [messageApi, contextHolder] = message.useMessage();
  useEffect(() => bindToastApi(messageApi), [messageApi]);
  return contextHolder;
}

/**
 * antd's provider (theme, locale, toasts) around the console and the public pages drawn with antd.
 * It is a chunk of its own, loaded with those pages: /login is drawn without antd, so its bytes hold
 * none of antd's styling engine.
 */
export function AntdRoot({ children }: { children: ReactNode }) {
  const locale = useLocale();
  return (
    <ConfigProvider locale={antdLocaleOf(locale)} theme={THEME}>
      <ToastHost />
      {children}
    </ConfigProvider>
  );
}

/** `Page` inside AntdRoot: for a lazy route that downloads the provider and the page together. */
export function withAntdRoot(Page: ComponentType): ComponentType {
  function PageInAntdRoot() {
    return (
      <AntdRoot>
        <Page />
      </AntdRoot>
    );
  }
  PageInAntdRoot.displayName = `WithAntdRoot(${Page.displayName ?? Page.name})`;
  return PageInAntdRoot;
}
