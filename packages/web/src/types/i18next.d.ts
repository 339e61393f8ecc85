import 'i18next';
import type { zhCN } from '../locales/zh-CN.ts';

// Typed keys: a misspelt key fails the typecheck instead of showing the key to the user.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof zhCN };
  }
}
