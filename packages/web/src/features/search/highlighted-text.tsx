import type { ReactNode } from 'react';
import { theme } from 'antd';

export interface Highlight {
  start: number;
  length: number;
}

/** Text with the server's matched ranges marked. The text is rendered as text: nothing in it becomes markup. */
export function HighlightedText({ text, highlights }: { text: string; highlights: readonly Highlight[] }) {
  const { token } = theme.useToken();
  const parts: ReactNode[] = [];
  let at = 0;
  const ordered = [...highlights].filter((h) => h.length > 0 && h.start >= 0 && h.start < text.length).sort((a, b) => a.start - b.start);
  for (const h of ordered) {
    if (h.start < at) continue;
    if (h.start > at) parts.push(text.slice(at, h.start));
    parts.push(
      <mark key={h.start} style={{ background: token.colorWarningBg, color: 'inherit', padding: 0 }}>
        {text.slice(h.start, h.start + h.length)}
      </mark>,
    );
    at = h.start + h.length;
  }
  if (at < text.length) parts.push(text.slice(at));
  return <>{parts}</>;
}
