import type { Catalogue } from './zh-CN.ts';
import type { zhCNChatApps } from './zh-CN-chat-apps.ts';

// en-US of zh-CN-chat-apps.ts.
export const enUSChatApps: Catalogue<typeof zhCNChatApps> = {
  title: 'Chat-app work notifications and attendance',
  tab: 'Work notifications',
  platforms: { dingtalk: 'DingTalk', wxwork: 'WeCom', feishu: 'Feishu' },
  channel: {
    intro: 'When on, to-dos, urges, results and messages reach each person as a work-notification card from the organisation\'s own app; tapping the card opens the record inside the client, signed in. People choose it per category under message settings; someone without an account on the platform gets the message through their other channels.',
    enabled: 'Send work notifications',
    use: 'Use',
    platform: 'Platform',
    app: 'App',
    ready: 'Ready',
    notConfigured: 'App not set up',
    disabled: 'App switched off',
    noAgentId: 'AgentId missing',
    people: 'Bound people',
    peopleCount: '{{count}}',
    appsHint: 'The apps are the third-party apps of the sign-in settings (AppKey, AppSecret, AgentId); people are bound by QR sign-in or directory sync.',
    toSignIn: 'Open sign-in settings',
    saveFailed: 'Saving failed',
    testHint: 'Send a test: one work notification to yourself through the chosen platform\'s app (your account there must be bound by sign-in or directory sync).',
    testPlatform: 'Choose a platform',
  },
};
