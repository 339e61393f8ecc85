/**
 * What a zh-CN screen must not show (ui.md: "English is a second catalogue, never mixed into the Chinese one";
 * "Dates in the zh-CN formats of the spec"): Latin-script words, and dates or times not in YYYY-MM-DD [HH:mm[:ss]].
 * Shared by unit tests and browser scenarios.
 */

/** Latin words a Chinese screen may show: product and file-format names, and key names of PC shortcuts. */
export const ZH_CN_LATIN_ALLOWED: readonly string[] = ['Tritium', 'Excel', 'Word', 'PDF', 'API', 'ID', 'URL', 'Ctrl', 'Delete', 'Enter', 'Esc'];

const FOREIGN_DATES: readonly RegExp[] = [
  /\b\d{1,2}\/\d{1,2}\/\d{2,4}\b/g, // 11/29/2026
  /\b\d{4}\/\d{1,2}\/\d{1,2}\b/g, // 2026/11/29
  /\b\d{4}-(?:\d-\d{1,2}|\d{2}-\d)\b/g, // 2026-1-5, unpadded
  /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/g, // an ISO moment shown as is
  /(?<![\d-])\d{2}-\d{2} \d{1,2}:\d{2}/g, // 11-29 05:33, a date-time without its year
  /(?<![\d:])\d:\d{2}\b/g, // 5:27, an hour without its leading zero
  /[上下]午\s*\d{1,2}:\d{2}/g, // 下午5:27
  /\d{4}年\d{1,2}月\d{1,2}日/g, // 2026年11月29日
];

// A word: a run of letters and digits with at least two Latin letters in a row (field codes such as F0001 pass).
const LATIN_WORD = /[A-Za-z0-9_]*[A-Za-z]{2,}[A-Za-z0-9_]*/g;

/** The fragments of `text` that do not belong on a zh-CN screen, in order; `allow` adds Latin words to the allow list. */
export function findForeignText(text: string, allow: readonly string[] = []): string[] {
  const allowed = new Set([...ZH_CN_LATIN_ALLOWED, ...allow]);
  const found: { at: number; fragment: string }[] = [];
  for (const match of text.matchAll(LATIN_WORD)) {
    if (!allowed.has(match[0])) found.push({ at: match.index, fragment: match[0] });
  }
  for (const pattern of FOREIGN_DATES) {
    for (const match of text.matchAll(pattern)) found.push({ at: match.index, fragment: match[0] });
  }
  // A fragment inside one already found (the 5:27 of 下午5:27) is not reported again.
  let end = -1;
  return found
    .sort((a, b) => a.at - b.at || b.fragment.length - a.fragment.length)
    .filter((f) => {
      const inside = f.at + f.fragment.length <= end;
      end = Math.max(end, f.at + f.fragment.length);
      return !inside;
    })
    .map((f) => f.fragment);
}
