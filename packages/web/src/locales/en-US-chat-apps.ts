import type { Catalogue } from './zh-CN.ts';
import type { zhCNChatApps } from './zh-CN-chat-apps.ts';

// en-US of zh-CN-chat-apps.ts.
export const enUSChatApps: Catalogue<typeof zhCNChatApps> = {
  title: 'Chat-app work notifications and attendance',
};
