import { ChannelError, type ChannelAdapter, type OutgoingMessage } from './channel.ts';
import type { SmsSettings } from './channel-settings.ts';
import { postJson } from './http-post.ts';
import { safeLink } from './message-text.ts';

/** The text of the SMS: the template with {title}, {content} and {link} filled, or all three in one line. */
export function smsText(template: string, message: OutgoingMessage): string {
  const link = safeLink(message.link) ?? '';
  if (!template.trim()) return [`【${message.title}】${message.content}`, link].filter(Boolean).join(' ');
  const values: Record<string, string> = { title: message.title, content: message.content, link };
  return template.replace(/\{(title|content|link)\}/g, (_, key: string) => values[key]);
}

/** A configurable HTTP provider: POST {mobile, content} as JSON, the token as a bearer credential. */
export const smsAdapter = (http: typeof fetch): ChannelAdapter => ({
  kind: 'sms',
  async send(settings, message) {
    const s = settings as SmsSettings;
    const mobile = message.recipient.mobile;
    if (!mobile) throw new ChannelError(`${message.recipient.name} has no mobile number`, false);
    const answer = await postJson(http, s.url, { mobile, content: smsText(s.template, message) }, s.token ? { authorization: `Bearer ${s.token}` } : {});
    return `HTTP ${answer.status} ${answer.text.slice(0, 200)}`.trim();
  },
});
