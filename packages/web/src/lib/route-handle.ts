import type { zhCN } from '../locales/zh-CN.ts';

// In lib, not app: features declare their own routes' titles (entry-routes.tsx) and may not import the app.

/** What a route tells the shell about itself. */
export interface RouteHandle {
  /** Catalogue key of the page title, shown as "<title> - Tritium". */
  titleKey: `titles.${keyof typeof zhCN.titles}`;
}

export const titled = (key: keyof typeof zhCN.titles): RouteHandle => ({ titleKey: `titles.${key}` });
