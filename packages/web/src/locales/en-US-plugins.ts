import type { Catalogue } from './zh-CN.ts';
import type { zhCNPlugins } from './zh-CN-plugins.ts';

// en-US of zh-CN-plugins.ts.
export const enUSPlugins: Catalogue<typeof zhCNPlugins> = {
  title: 'Plugins',
};
