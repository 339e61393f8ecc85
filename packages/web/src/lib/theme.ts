import type { ThemeConfig } from 'antd';

/** ui.md: the only place colours, radius and fonts are chosen; components read tokens. */
export const FONT_FAMILY = '"PingFang SC", "Microsoft YaHei", "WenQuanYi Micro Hei", sans-serif';

// stack.md: animations off under automation, or end-to-end clicks land on moving targets.
const isAutomated = typeof navigator !== 'undefined' && !!navigator.webdriver;

/** The colours an app's icon may wear (stored on the app as iconColor). */
export const APP_COLORS = ['#1f6fff', '#13a8a8', '#52c41a', '#fa8c16', '#f5222d', '#eb2f96', '#722ed1', '#2f54eb', '#8c8c8c'] as const;

export const appTheme: ThemeConfig = {
  token: {
    colorPrimary: '#1f6fff',
    colorInfo: '#1f6fff',
    borderRadius: 6,
    fontFamily: FONT_FAMILY,
    motion: !isAutomated,
  },
};
