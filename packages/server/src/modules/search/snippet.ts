import type { contracts } from '@tritium/shared';

// Where a keyword sits in a piece of text, as offsets, and a short window around the first match (docs/decisions/0040).
// Plain text only: the client marks the offsets, so no markup ever comes from user data.

/** Characters kept before the first match and in all. */
const BEFORE = 12;
const WINDOW = 60;

/** Every non-overlapping, case-insensitive occurrence of `keyword` in `text`. */
export function matchesIn(text: string, keyword: string): contracts.SearchSnippet['highlights'] {
  const needle = keyword.toLocaleLowerCase();
  const hay = text.toLocaleLowerCase();
  // Lower-casing may change lengths (rare letters); then offsets would drift: fall back to the exact text.
  const [h, n] = hay.length === text.length && needle.length === keyword.length ? [hay, needle] : [text, keyword];
  const out: contracts.SearchSnippet['highlights'] = [];
  if (!n) return out;
  for (let at = h.indexOf(n); at !== -1; at = h.indexOf(n, at + n.length)) out.push({ start: at, length: n.length });
  return out;
}

/** A window of `text` around its first match of `keyword`, with the matches inside it. Line breaks become spaces. */
export function snippetOf(text: string, keyword: string): contracts.SearchSnippet {
  const flat = text.replace(/\s+/g, ' ');
  const first = matchesIn(flat, keyword)[0];
  if (!first) return { text: flat.slice(0, WINDOW), highlights: [] };
  const start = Math.max(0, Math.min(first.start - BEFORE, flat.length - WINDOW));
  const end = Math.min(flat.length, Math.max(start + WINDOW, first.start + first.length));
  const lead = start > 0 ? '…' : '';
  const tail = end < flat.length ? '…' : '';
  const piece = `${lead}${flat.slice(start, end)}${tail}`;
  return { text: piece, highlights: matchesIn(piece, keyword) };
}
