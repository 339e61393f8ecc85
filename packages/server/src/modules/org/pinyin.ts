import { pinyin } from 'pinyin-pro';

/** Search keys of a name: full pinyin and initials, lower-case, without tones, spaces or punctuation. */
export interface NameKeys {
  name_pinyin: string;
  name_initials: string;
  /** The text /v1/org/search matches: compact name, pinyin, initials and mobile, separated by spaces. */
  search_text: string;
}

const compact = (text: string) => text.toLowerCase().replace(/[\s\u3000]+/g, '');
const letters = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * One reading per character, chosen by pinyin-pro from the context, with surname readings for the first
 * character (曾 zeng, 单 shan); ü is written v, as people type it. Non-Chinese runs are kept as words.
 */
export function nameKeys(name: string, mobile?: string | null): NameKeys {
  const syllables = pinyin(name, { toneType: 'none', type: 'array', v: true, nonZh: 'consecutive', surname: 'head' }).map(letters).filter(Boolean);
  const name_pinyin = syllables.join('');
  const name_initials = syllables.map((s) => s[0]).join('');
  const search_text = [compact(name), name_pinyin, name_initials, mobile ?? ''].filter(Boolean).join(' ');
  return { name_pinyin, name_initials, search_text };
}

/** A keyword in the form search_text holds: lower-case, without spaces. */
export function searchKeyword(keyword: string): string {
  return compact(keyword);
}

/** Escapes LIKE wildcards (PostgreSQL's default escape character is the backslash). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
