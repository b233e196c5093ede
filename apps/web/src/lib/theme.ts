import type { ThemeConfig } from 'antd';

/** The font stack of the whole console: antd's theme and the plain pages (global.css) use the same one. */
export const FONT_FAMILY =
  "-apple-system, BlinkMacSystemFont, 'Segoe UI', 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', 'Helvetica Neue', Arial, sans-serif";

/**
 * Colours chosen for WCAG 2 AA contrast (4.5:1 for text): antd's defaults fall short where the console
 * writes on them — white on #1677ff is 4.1:1, grey placeholders 1.83:1, secondary text 3.4:1, the
 * danger red 3.3:1. Each value below is the nearest antd palette shade (or grey) that reaches 4.5:1
 * on white and on the light fills it sits on (#e8f1ff for the selected menu item, #fafafa for labels).
 */
export const A11Y_COLORS = {
  primary: '#0958d9',
  error: '#cf1322',
  secondaryText: '#666666',
  placeholder: '#757575',
  /** A switch's "off" track, under white text. */
  switchOff: '#737373',
} as const;

/** antd's theme, shared by the provider around the console (AntdRoot) and by toasts shown outside it. */
export const THEME: ThemeConfig = {
  token: {
    colorPrimary: A11Y_COLORS.primary,
    colorLink: A11Y_COLORS.primary,
    colorError: A11Y_COLORS.error,
    colorInfo: A11Y_COLORS.primary,
    colorTextTertiary: A11Y_COLORS.secondaryText,
    colorTextDescription: A11Y_COLORS.secondaryText,
    colorTextPlaceholder: A11Y_COLORS.placeholder,
    borderRadius: 6,
    fontFamily: FONT_FAMILY,
  },
  components: {
    Menu: { itemHeight: 38, itemBorderRadius: 6, itemSelectedBg: '#e8f1ff' },
    Switch: { colorTextQuaternary: A11Y_COLORS.switchOff, colorTextTertiary: '#595959' },
  },
};
