import { describe, expect, it } from 'vitest';
import { matchesIn, snippetOf } from './snippet.ts';

// Snippets: a window around the first match with every match in it as offsets; plain text in, plain text out.

const marked = (s: { text: string; highlights: { start: number; length: number }[] }) => s.highlights.map((h) => s.text.slice(h.start, h.start + h.length));

describe('snippets', () => {
  it('finds every occurrence, ignoring case', () => {
    expect(matchesIn('Order ORDER order', 'order')).toEqual([{ start: 0, length: 5 }, { start: 6, length: 5 }, { start: 12, length: 5 }]);
    expect(matchesIn('阶梯报价与阶梯报价', '阶梯报价')).toEqual([{ start: 0, length: 4 }, { start: 5, length: 4 }]);
    expect(matchesIn('无关内容', '报价')).toEqual([]);
  });

  it('cuts a long text around the first match, marking the cut ends', () => {
    const text = `${'甲'.repeat(100)}扩大采购规模${'乙'.repeat(100)}`;
    const snippet = snippetOf(text, '采购');
    expect(snippet.text.startsWith('…')).toBe(true);
    expect(snippet.text.endsWith('…')).toBe(true);
    expect(snippet.text.length).toBeLessThanOrEqual(62);
    expect(marked(snippet)).toEqual(['采购']);
    expect(snippet.text.indexOf('采购')).toBe(13);
  });

  it('keeps a short text whole, flattening line breaks, and leaves markup as text', () => {
    expect(snippetOf('第一行\n<b>第二行</b>', '二行')).toEqual({ text: '第一行 <b>第二行</b>', highlights: [{ start: 8, length: 2 }] });
  });
});
