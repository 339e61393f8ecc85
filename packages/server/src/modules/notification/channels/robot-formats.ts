import { createHmac } from 'node:crypto';
import type { OutgoingMessage } from './channel.ts';
import type { RobotSettings } from './channel-settings.ts';
import { OPEN_LINK_TEXT, safeLink } from './message-text.ts';

// Each chat platform's message format and signing. A robot posts into a group, so the message names its recipient.

export interface RobotRequest {
  url: string;
  body: unknown;
}

/** DingTalk "加签": HMAC-SHA256 of `${timestamp}\n${secret}` keyed by the secret, base64 (timestamp in ms). */
export function dingTalkSign(timestampMs: number, secret: string): string {
  return createHmac('sha256', secret).update(`${timestampMs}\n${secret}`, 'utf8').digest('base64');
}

/** Feishu "签名校验": HMAC-SHA256 keyed by `${timestamp}\n${secret}` over an empty message, base64 (timestamp in s). */
export function feishuSign(timestampSeconds: number, secret: string): string {
  return createHmac('sha256', `${timestampSeconds}\n${secret}`).update('').digest('base64');
}

// Markdown as the platforms render it: a paragraph per line of the content (a single line break is not kept).
function markdownBody(message: OutgoingMessage, heading: (title: string) => string): string {
  const link = safeLink(message.link);
  const content = message.content.replace(/\r?\n/g, '\n\n');
  return [heading(message.title), content, `@${message.recipient.name}`, link ? `[${OPEN_LINK_TEXT}](${link})` : '']
    .filter(Boolean)
    .join('\n\n');
}

function dingTalk(robot: RobotSettings, message: OutgoingMessage, now: number): RobotRequest {
  const body = { msgtype: 'markdown', markdown: { title: message.title, text: markdownBody(message, (title) => `#### ${title}`) } };
  if (!robot.secret) return { url: robot.webhookUrl, body };
  const url = new URL(robot.webhookUrl);
  url.searchParams.set('timestamp', String(now));
  url.searchParams.set('sign', dingTalkSign(now, robot.secret));
  return { url: url.toString(), body };
}

function weCom(robot: RobotSettings, message: OutgoingMessage): RobotRequest {
  return { url: robot.webhookUrl, body: { msgtype: 'markdown', markdown: { content: markdownBody(message, (title) => `**${title}**`) } } };
}

function feishu(robot: RobotSettings, message: OutgoingMessage, now: number): RobotRequest {
  const link = safeLink(message.link);
  const lines: unknown[][] = [[{ tag: 'text', text: message.content }], [{ tag: 'text', text: `@${message.recipient.name}` }]];
  if (link) lines.push([{ tag: 'a', text: OPEN_LINK_TEXT, href: link }]);
  const body: Record<string, unknown> = { msg_type: 'post', content: { post: { zh_cn: { title: message.title, content: lines } } } };
  if (robot.secret) {
    const timestamp = Math.floor(now / 1000);
    Object.assign(body, { timestamp: String(timestamp), sign: feishuSign(timestamp, robot.secret) });
  }
  return { url: robot.webhookUrl, body };
}

/** The request one robot receives for a message; `now` in milliseconds. */
export function robotRequest(robot: RobotSettings, message: OutgoingMessage, now = Date.now()): RobotRequest {
  if (robot.platform === 'dingtalk') return dingTalk(robot, message, now);
  if (robot.platform === 'wecom') return weCom(robot, message);
  return feishu(robot, message, now);
}
