/**
 * Values as people and other systems write them → the stored value format (docs/decisions/0029). Every entry point
 * (the form runtime's /v1 saves, the open API, Excel import, business-rule and data-link writes) converts through
 * `controlFromInput`, so one value gets one verdict wherever it arrives. The value schema of the control type then
 * decides; a value these functions cannot read is handed on unchanged for the schema to refuse.
 */
import type { AnyControlType } from './types.ts';

/** Wall times without a zone are China time (h3yun-facts §1.4: the product's dates are Asia/Shanghai, no DST). */
export const INPUT_ZONE_OFFSET = '+08:00';
const INPUT_ZONE_MS = 8 * 3_600_000;

const pad = (n: string | number, l = 2) => String(n).padStart(l, '0');
// 2024-01-02, 2024/1/2, 2024.1.2, 2024年1月2日 (day optional: a month alone is its first day), then an optional time
// 10:30, 10:30:15, 10时30分15秒, after a space or a T; a trailing fraction of a second is ignored.
const LOCAL_DATE =
  /^(\d{4})\s*[-/.年]\s*(\d{1,2})\s*(?:[-/.月]\s*(\d{1,2})\s*[日号]?)?\s*(?:[T\s]\s*(\d{1,2})\s*[:：时]\s*(\d{1,2})\s*(?:[:：分]\s*(\d{1,2})(?:\.\d+)?\s*秒?|分)?\s*)?$/;
const COMPACT_DATE = /^(\d{4})(\d{2})(\d{2})$/;
const WITH_ZONE = /(?:[zZ]|[+-]\d{2}:?\d{2})$/;

/**
 * A date or date-time as ISO-8601 in UTC, or null when the text is not one: ISO with a zone as it is; `YYYY-MM-DD`,
 * `YYYY-MM-DD HH:mm[:ss]`, `YYYY-MM-DDTHH:mm[:ss]` and the common Chinese spellings (2024/1/2, 2024年1月2日 10时30分,
 * 20240102) in China time. Impossible dates (2024-02-31) are refused rather than rolled over.
 */
export function parseDateTimeInput(input: unknown): string | null {
  if (input instanceof Date) return Number.isNaN(input.getTime()) ? null : input.toISOString();
  if (typeof input !== 'string') return null;
  // An import reads the same few dates over and over, each twice (the cell, then the save's check of its value).
  let parsed = parsedTexts.get(input);
  if (parsed === undefined) {
    if (parsedTexts.size >= PARSED_TEXTS_MAX) parsedTexts.clear();
    parsedTexts.set(input, (parsed = parseDateTimeText(input)));
  }
  return parsed;
}

/** Texts parseDateTimeInput has read, with what they gave (it depends on the text alone). */
const parsedTexts = new Map<string, string | null>();
const PARSED_TEXTS_MAX = 4096;

function parseDateTimeText(input: string): string | null {
  const text = input.trim();
  if (!text) return null;
  if (WITH_ZONE.test(text) && /^\d{4}-\d{2}-\d{2}T/.test(text)) {
    const at = Date.parse(text);
    return Number.isNaN(at) ? null : new Date(at).toISOString();
  }
  const compact = COMPACT_DATE.exec(text);
  const m = LOCAL_DATE.exec(text) ?? (compact ? [text, compact[1], compact[2], compact[3]] : null);
  if (!m) return null;
  const [, y, mo, d = '1', h = '0', mi = '0', s = '0'] = m as string[];
  const month = Number(mo), day = Number(d), hour = Number(h), minute = Number(mi), second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return null;
  // A calendar check without a time zone: Date.UTC rolls 02-31 over to March, which tells it apart.
  const probe = new Date(Date.UTC(Number(y), month - 1, day));
  if (probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) return null;
  // The moment by arithmetic (no text to build and parse again: a batch converts every date it holds); Date.UTC reads
  // years below 100 as 19xx, so those go through the text.
  if (Number(y) >= 100) return new Date(probe.getTime() + ((hour * 60 + minute) * 60 + second) * 1000 - INPUT_ZONE_MS).toISOString();
  return new Date(`${y}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}:${pad(second)}${INPUT_ZONE_OFFSET}`).toISOString();
}

/** A number, or a numeric text such as "12.5" or "1,234" (thousands separators and spaces dropped). */
export function parseNumberInput(input: unknown): unknown {
  if (typeof input !== 'string') return input;
  const text = input.replace(/[,，\s]/g, '');
  if (text === '') return input;
  const n = Number(text);
  return Number.isFinite(n) ? n : input;
}

const YES = new Set(['是', 'true', '1', 'yes', 'y', '√', '✓', '对']);
const NO = new Set(['否', 'false', '0', 'no', 'n', '×', '✗', '错']);

/** true / false, or their common written forms (是/否, yes/no, 1/0, √/×). */
export function parseBooleanInput(input: unknown): unknown {
  if (typeof input === 'number') return input === 1 ? true : input === 0 ? false : input;
  if (typeof input !== 'string') return input;
  const text = input.trim().toLowerCase();
  return YES.has(text) ? true : NO.has(text) ? false : input;
}

/** Items written as one text, `a;b;c` (the product's joined form; full-width ';' and new lines too). */
export function splitListInput(input: unknown): unknown {
  if (typeof input !== 'string') return input;
  return input.split(/[;；\n]/).map((item) => item.trim()).filter(Boolean);
}

/** A value as the control type stores it (see the file's comment); types without `fromInput` take it as it is. */
export function controlFromInput(type: Pick<AnyControlType, 'fromInput'>, input: unknown): unknown {
  if (input === null || input === undefined) return null;
  return type.fromInput ? type.fromInput(input) : input;
}

/**
 * The items a value of this control must be among, or null when any text is accepted (no fixed list, or a list
 * read from another form's rows).
 */
export function controlChoices(type: Pick<AnyControlType, 'choices'>, options: unknown): readonly string[] | null {
  return type.choices?.(options) ?? null;
}
