import { nodemailerTransport } from '../../../lib/lazy-packages.ts';
import { ChannelError, type ChannelAdapter, type OutgoingMessage } from './channel.ts';
import type { EmailSettings } from './channel-settings.ts';
import { escapeHtml, OPEN_LINK_TEXT, plainText, safeLink } from './message-text.ts';

const TIMEOUT_MS = 15_000;

/** The HTML body: title, the content (escaped, line breaks kept) and a button back to the record. */
export function emailHtml(message: OutgoingMessage): string {
  const link = safeLink(message.link);
  const content = escapeHtml(message.content).replace(/\r?\n/g, '<br>');
  const button = link
    ? `<p style="margin:24px 0 0"><a href="${escapeHtml(link)}" style="display:inline-block;padding:8px 20px;background:#1677ff;color:#fff;border-radius:6px;text-decoration:none">${OPEN_LINK_TEXT}</a></p>`
    : '';
  return [
    '<!doctype html><html><body style="font-family:PingFang SC,Microsoft YaHei,sans-serif;color:#1f1f1f">',
    `<h2 style="font-size:18px;margin:0 0 16px">${escapeHtml(message.title)}</h2>`,
    `<div style="font-size:14px;line-height:1.6">${content}</div>`,
    button,
    '</body></html>',
  ].join('');
}

/**
 * Which SMTP failures may pass on a later try: no connection, a timeout, a 4xx reply (SMTP's "try again later").
 * A refused sign-in, a refused address (5xx) or a malformed message fail the same way every time.
 */
function classify(error: unknown): ChannelError {
  const e = error as { code?: string; responseCode?: number; message?: string };
  const message = e.message ?? String(error);
  if (e.code === 'EAUTH' || e.code === 'EENVELOPE' || e.code === 'EMESSAGE') return new ChannelError(message, false);
  if (typeof e.responseCode === 'number') return new ChannelError(message, e.responseCode < 500);
  return new ChannelError(message, true);
}

export const emailAdapter: ChannelAdapter = {
  kind: 'email',
  async send(settings, message) {
    const s = settings as EmailSettings;
    const to = message.recipient.email;
    if (!to) throw new ChannelError(`${message.recipient.name} has no e-mail address`, false);
    const transport = (await nodemailerTransport()).createTransport({
      host: s.host,
      port: s.port,
      secure: s.secure,
      auth: s.user ? { user: s.user, pass: s.password } : undefined,
      connectionTimeout: TIMEOUT_MS,
      greetingTimeout: TIMEOUT_MS,
      socketTimeout: TIMEOUT_MS,
    });
    try {
      const info = await transport.sendMail({
        from: s.fromName ? { name: s.fromName, address: s.fromAddress } : s.fromAddress,
        to: { name: message.recipient.name, address: to },
        subject: message.title,
        text: plainText(message),
        html: emailHtml(message),
      });
      return `${info.messageId ?? ''} ${info.response ?? ''}`.trim().slice(0, 500);
    } catch (error) {
      throw classify(error);
    } finally {
      transport.close();
    }
  },
};
