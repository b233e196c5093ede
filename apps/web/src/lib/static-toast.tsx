import { ConfigProvider, message } from 'antd';
import { antdLocaleOf, getLocale } from './i18n';
import { THEME } from './theme';
import type { ToastApi } from './toast-api';

let configured = false;

/**
 * antd's static message, drawn inside a provider with the console's theme and the current language:
 * the toasts of pages shown without antd's provider look like the console's.
 */
export function staticToast(): ToastApi {
  if (!configured) {
    configured = true;
    ConfigProvider.config({
      holderRender: (children) => (
        <ConfigProvider theme={THEME} locale={antdLocaleOf(getLocale())}>
          {children}
        </ConfigProvider>
      ),
    });
  }
  return message;
}
