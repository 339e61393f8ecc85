import type { OutgoingMessage } from './channel.ts';

// How a message reads outside the app: shared by the mail, SMS and robot formats.

/** The label of the link back to the record. */
export const OPEN_LINK_TEXT = '查看详情';

/** Only http(s) addresses become links; anything else is left out rather than trusted. */
export function safeLink(link: string | null): string | null {
  if (!link) return null;
  try {
    const url = new URL(link);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : null;
  } catch {
    return null;
  }
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** The plain text of a message: title, content and the link on their own lines. */
export function plainText(message: OutgoingMessage): string {
  const link = safeLink(message.link);
  return [message.title, message.content, link ? `${OPEN_LINK_TEXT}：${link}` : ''].filter(Boolean).join('\n\n');
}
