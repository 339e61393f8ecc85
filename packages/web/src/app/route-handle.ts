import type { zhCN } from '../locales/zh-CN.ts';

/** What a route tells the shell about itself. */
export interface RouteHandle {
  /** Catalogue key of the page title, shown as "<title> - Tritium". */
  titleKey: `titles.${keyof typeof zhCN.titles}`;
}

export const titled = (key: keyof typeof zhCN.titles): RouteHandle => ({ titleKey: `titles.${key}` });
