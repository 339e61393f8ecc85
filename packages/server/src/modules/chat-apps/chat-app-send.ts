import type { contracts } from '@tritium/shared';
import { ChatPlatformError, type ChatProviderSettings } from '../integrations/providers/chat-provider.ts';
import { fetchJson, withAppToken } from '../integrations/providers/platform-http.ts';
import { call as dingtalkCall } from '../integrations/providers/dingtalk.ts';
import { accessToken as wxworkToken } from '../integrations/providers/wxwork.ts';
import { request as feishuRequest, tenantToken as feishuToken, TOKEN_EXPIRED as FEISHU_TOKEN_EXPIRED } from '../integrations/providers/feishu.ts';
import { ChannelError } from '../notification/channels/channel.ts';

// One personal work message through an engine's own chat app (docs/decisions/0123 "Chat apps"), with the app token
// the sign-in adapters already fetch and cache:
// - DingTalk: POST /topapi/message/corpconversation/asyncsend_v2 (agent_id, userid_list, msg action_card with one
//   button: single_title, single_url);
// - WeCom: POST /cgi-bin/message/send (touser, agentid, msgtype textcard: title, description, url, btntxt);
// - Feishu: POST /open-apis/im/v1/messages?receive_id_type=user_id|open_id (msg_type interactive: a card whose button
//   opens the link), with the tenant token.
// The platform's refusals become ChannelErrors: retryable for a busy platform, a rate limit or no answer, not for
// refused credentials or a person the app may not reach.

export type ChatAppPlatform = contracts.ChatAppPlatform;

export interface WorkMessage {
  title: string;
  content: string;
  /** Where the card's button goes (the in-client sign-in link of the record). */
  url: string;
}

export const OPEN_BUTTON = '查看详情';

/** Codes worth another try later: the platform busy, or too many messages now. */
const RETRYABLE: Record<ChatAppPlatform, ReadonlySet<number>> = {
  dingtalk: new Set([-1, 90018, 90002]),
  wxwork: new Set([-1, 45009, 45033]),
  feishu: new Set([99991400, 230020, 1000004]),
};

const PLATFORM_NAMES: Record<ChatAppPlatform, string> = { dingtalk: '钉钉', wxwork: '企业微信', feishu: '飞书' };

/** A ChatPlatformError (or a network failure) as the delivery log reads it. */
export function channelErrorOf(platform: ChatAppPlatform, error: unknown): ChannelError {
  if (error instanceof ChannelError) return error;
  const name = PLATFORM_NAMES[platform];
  if (error instanceof ChatPlatformError) {
    if (error.kind === 'credentials') return new ChannelError(`${name}拒绝了应用凭证（获取 access_token 失败）：${error.message}`, false);
    if (error.kind === 'unreachable') return new ChannelError(`${name}无法访问：${error.message}`, true);
    return new ChannelError(`${name}返回错误：${error.message}`, RETRYABLE[platform].has(Number(error.platformCode)));
  }
  return new ChannelError(`${name}：${error instanceof Error ? error.message : String(error)}`, true);
}

/**
 * DingTalk opens a link inside the client (on a computer in its side panel) when it is wrapped in its own scheme;
 * the phone app opens it in its browser either way.
 */
export function dingtalkClientLink(url: string): string {
  return `dingtalk://dingtalkclient/page/link?url=${encodeURIComponent(url)}&pc_slide=true`;
}

async function sendDingtalk(settings: ChatProviderSettings, userId: string, message: WorkMessage): Promise<string> {
  const markdown = [`### ${message.title}`, message.content].filter(Boolean).join('\n\n');
  const answer = await dingtalkCall(settings, '/topapi/message/corpconversation/asyncsend_v2', {
    agent_id: Number(settings.agentId),
    userid_list: userId,
    msg: { msgtype: 'action_card', action_card: { title: message.title, markdown, single_title: OPEN_BUTTON, single_url: dingtalkClientLink(message.url) } },
  });
  return `钉钉 task_id ${String(answer.task_id ?? '')}`;
}

async function sendWxwork(settings: ChatProviderSettings, userId: string, message: WorkMessage): Promise<string> {
  const body = {
    touser: userId,
    msgtype: 'textcard',
    agentid: Number(settings.agentId),
    textcard: { title: message.title.slice(0, 128), description: message.content.slice(0, 512) || message.title, url: message.url, btntxt: OPEN_BUTTON },
  };
  const answer = await withAppToken(
    (fresh) => wxworkToken(settings, fresh),
    (error) => error.platformCode === 42001 || error.platformCode === 40014,
    async (token) => {
      const url = new URL('/cgi-bin/message/send', settings.baseUrl);
      url.searchParams.set('access_token', token);
      const { status, body: json } = await fetchJson(settings.http, 'WeCom', url, { body });
      if (typeof json.errcode !== 'number') throw new ChatPlatformError(status, `WeCom answered ${status} without errcode`, 'unreachable');
      if (json.errcode !== 0) {
        const credentials = [40001, 40013, 40056, 40057, 48002].includes(json.errcode);
        throw new ChatPlatformError(json.errcode, `WeCom /cgi-bin/message/send: ${json.errcode} ${String(json.errmsg)}`, credentials ? 'credentials' : 'other');
      }
      return json;
    },
  );
  // WeCom answers 0 and names the people it could not reach (outside the app's visible range, unknown).
  const invalid = String(answer.invaliduser ?? '').split('|').filter(Boolean);
  if (invalid.includes(userId)) throw new ChannelError(`企业微信无法送达成员 ${userId}（不在应用可见范围或不存在）`, false);
  return `企业微信 msgid ${String(answer.msgid ?? '')}`;
}

/** Feishu's user_id, or an open_id (ou_…) where the sign-in knew only that. */
const feishuIdType = (id: string) => (id.startsWith('ou_') ? 'open_id' : 'user_id');

async function sendFeishu(settings: ChatProviderSettings, userId: string, message: WorkMessage): Promise<string> {
  const card = {
    config: { wide_screen_mode: true },
    header: { template: 'blue', title: { tag: 'plain_text', content: message.title } },
    elements: [
      ...(message.content ? [{ tag: 'div', text: { tag: 'plain_text', content: message.content } }] : []),
      { tag: 'action', actions: [{ tag: 'button', text: { tag: 'plain_text', content: OPEN_BUTTON }, type: 'primary', url: message.url }] },
    ],
  };
  const answer = await withAppToken(
    (fresh) => feishuToken(settings, fresh),
    (error) => FEISHU_TOKEN_EXPIRED.has(Number(error.platformCode)),
    (token) =>
      feishuRequest(settings, '/open-apis/im/v1/messages', {
        token,
        query: { receive_id_type: feishuIdType(userId) },
        body: { receive_id: userId, msg_type: 'interactive', content: JSON.stringify(card) },
      }),
  );
  return `飞书 message_id ${String((answer.data as { message_id?: string } | undefined)?.message_id ?? '')}`;
}

/** Sends one work message to one person (their platform user id); answers the delivery log's detail. */
export async function sendWorkMessage(platform: ChatAppPlatform, settings: ChatProviderSettings, userId: string, message: WorkMessage): Promise<string> {
  try {
    if (platform === 'dingtalk') return await sendDingtalk(settings, userId, message);
    if (platform === 'wxwork') return await sendWxwork(settings, userId, message);
    return await sendFeishu(settings, userId, message);
  } catch (error) {
    throw channelErrorOf(platform, error);
  }
}

export const platformName = (platform: ChatAppPlatform) => PLATFORM_NAMES[platform];
