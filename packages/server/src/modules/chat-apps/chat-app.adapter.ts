import { ChannelError, type ChannelAdapter } from '../notification/channels/channel.ts';
import type { ChatAppDelivery } from './chat-app-channel.ts';
import { platformName, sendWorkMessage } from './chat-app-send.ts';
import { openLink } from './chat-app-link.ts';

// The chat-app channel (docs/decisions/0123 "Chat apps"): a personal work message on the first platform, in the
// administrator's order, where the person has a user id. Someone with none gets nothing here: the delivery fails for
// good and says which of their other channels carry the message instead.

const CHANNEL_NAMES: Record<string, string> = { email: '邮件', sms: '短信' };

/** The path of a message's link on this site (the record), or null. */
function pathOf(link: string | null): string | null {
  if (!link) return null;
  try {
    const url = new URL(link);
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return null;
  }
}

export const chatAppAdapter: ChannelAdapter = {
  kind: 'chatApp',
  async send(settings, message) {
    const delivery = settings as ChatAppDelivery;
    const subjects = await delivery.subjectsOf(message.recipient.userId);
    const target = delivery.platforms.find((p) => subjects.has(p.platform));
    if (!target) {
      const others = (await delivery.otherChannelsOf(message.recipient.userId, message.category)).map((c) => CHANNEL_NAMES[c] ?? c);
      const names = delivery.platforms.map((p) => platformName(p.platform)).join('、');
      const fallback = others.length ? `已改由${others.join('、')}和站内消息送达` : '仅站内消息送达';
      throw new ChannelError(`${message.recipient.name}没有${names}账号（未通过登录或通讯录同步绑定），${fallback}`, false);
    }
    const url = openLink(delivery.siteUrl, target.platform, delivery.engineCode, pathOf(message.link));
    return sendWorkMessage(target.platform, target.settings, subjects.get(target.platform)!, { title: message.title, content: message.content, url });
  },
};
