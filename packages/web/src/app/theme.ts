import type { ThemeConfig } from 'antd';

/** ui.md: the only place colours, radius and fonts are chosen; components read tokens. */
export const FONT_FAMILY = '"PingFang SC", "Microsoft YaHei", "WenQuanYi Micro Hei", sans-serif';

// stack.md: animations off under automation, or end-to-end clicks land on moving targets.
const isAutomated = typeof navigator !== 'undefined' && !!navigator.webdriver;

export const appTheme: ThemeConfig = {
  token: {
    colorPrimary: '#1f6fff',
    colorInfo: '#1f6fff',
    borderRadius: 6,
    fontFamily: FONT_FAMILY,
    motion: !isAutomated,
  },
};
