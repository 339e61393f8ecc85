import type { ChatProvider, ChatProviderName } from './chat-provider.ts';
import { dingtalkProvider } from './dingtalk.ts';
import { feishuProvider } from './feishu.ts';
import { wxworkProvider } from './wxwork.ts';
import { wechatProvider } from './wechat.ts';

/** Every chat platform adapter by name: a new platform is one adapter file and one line here. */
export const CHAT_PROVIDERS: Record<ChatProviderName, ChatProvider> = {
  dingtalk: dingtalkProvider,
  wxwork: wxworkProvider,
  feishu: feishuProvider,
  wechat: wechatProvider,
};

export function chatProvider(name: ChatProviderName): ChatProvider {
  return CHAT_PROVIDERS[name];
}
