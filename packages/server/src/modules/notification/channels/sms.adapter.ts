import { SMS_CONTENT_MAX_LENGTH } from '@tritium/shared/constants/limits';
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

/** The text as messages of at most 200 characters (domain.md §5), split by characters, never inside a surrogate pair. */
export function smsParts(text: string, max = SMS_CONTENT_MAX_LENGTH): string[] {
  const chars = [...text];
  const parts: string[] = [];
  for (let i = 0; i < chars.length; i += max) parts.push(chars.slice(i, i + max).join(''));
  return parts.length ? parts : [''];
}

/** A configurable HTTP provider: POST {mobile, content} as JSON, the token as a bearer credential; a longer text goes as several messages. */
export const smsAdapter = (http: typeof fetch): ChannelAdapter => ({
  kind: 'sms',
  async send(settings, message) {
    const s = settings as SmsSettings;
    const mobile = message.recipient.mobile;
    if (!mobile) throw new ChannelError(`${message.recipient.name} has no mobile number`, false);
    const details: string[] = [];
    for (const content of smsParts(smsText(s.template, message))) {
      const answer = await postJson(http, s.url, { mobile, content }, s.token ? { authorization: `Bearer ${s.token}` } : {});
      details.push(`HTTP ${answer.status} ${answer.text.slice(0, 200)}`.trim());
    }
    return details.join('; ');
  },
});
