import type { ThemeConfig } from 'antd';

/** The font stack of the whole console: antd's theme and the plain pages (global.css) use the same one. */
export const FONT_FAMILY =
  "-apple-system, BlinkMacSystemFont, 'Segoe UI', 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', 'Helvetica Neue', Arial, sans-serif";

/** antd's theme, shared by the provider around the console (AntdRoot) and by toasts shown outside it. */
export const THEME: ThemeConfig = {
  token: {
    colorPrimary: '#1677ff',
    borderRadius: 6,
    fontFamily: FONT_FAMILY,
  },
  components: {
    Menu: { itemHeight: 38, itemBorderRadius: 6, itemSelectedBg: '#e8f1ff' },
  },
};
