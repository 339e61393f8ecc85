/** Helpers for displayText: dates, numbers, people and lists as plain text (domain.md §9, ui.md "Visual language"). */
import type { DateFormat, DateTimeDisplayFormat } from '../constants/formats.ts';
import type { Locale } from '../errors/catalogue.ts';
import { SELECT_ITEM_SEPARATOR } from './options/select.ts';
import type { NumberShowMode } from './options/number.ts';
import type { DisplayContext } from './types.ts';

export const DEFAULT_DISPLAY_LOCALE: Locale = 'zh-CN';
// The interface is Chinese first (domain.md §1), so dates are read in China's time zone unless told otherwise.
export const DEFAULT_DISPLAY_TIME_ZONE = 'Asia/Shanghai';

const partFormats = new Map<string, Intl.DateTimeFormat>();

/** China has kept UTC+8 without daylight saving since 1992 (earlier moments go through Intl, which knows the history). */
const SHANGHAI_FIXED_FROM = Date.UTC(1992, 0, 1);
const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

function dateParts(moment: Date, timeZone: string): Record<string, string> {
  // Intl's formatToParts is slow (it dominated an export's time, issue 26): China time is worked out directly.
  if (timeZone === DEFAULT_DISPLAY_TIME_ZONE && moment.getTime() >= SHANGHAI_FIXED_FROM && moment.getTime() < 253402300800000) {
    const local = new Date(moment.getTime() + 8 * 3600_000);
    return {
      year: String(local.getUTCFullYear()), month: pad2(local.getUTCMonth() + 1), day: pad2(local.getUTCDate()),
      hour: pad2(local.getUTCHours()), minute: pad2(local.getUTCMinutes()), second: pad2(local.getUTCSeconds()),
    };
  }
  let format = partFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit',
      hour: '2-digit', minute: '2-digit', second: '2-digit',
    });
    partFormats.set(timeZone, format);
  }
  return Object.fromEntries(format.formatToParts(moment).map((part) => [part.type, part.value]));
}

/** An ISO moment in one of the spec's lower-case formats (mm is the month before the time part, minutes in it). */
export function formatDateTime(
  iso: string,
  format: DateTimeDisplayFormat | DateFormat,
  timeZone: string = DEFAULT_DISPLAY_TIME_ZONE,
): string {
  const moment = new Date(iso);
  if (Number.isNaN(moment.getTime())) return '';
  const p = dateParts(moment, timeZone);
  // The export's format, every date cell of it: without the replaces.
  if (format === 'yyyy-mm-dd hh:mm:ss') return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
  return format
    .replace(/hh:mm(:ss)?/, (time) => `${p.hour}:${p.minute}${time.length > 5 ? `:${p.second}` : ''}`)
    .replace('yyyy', p.year)
    .replace('mm', p.month)
    .replace('dd', p.day);
}

/** A number with the control's decimals; percentage and bar modes read as a percentage. */
export function formatNumber(value: number, decimalPlaces: number, showMode: NumberShowMode = 'normal'): string {
  const fixed = value.toFixed(decimalPlaces);
  // -0.001 with no decimals rounds to "-0"; show it as 0.
  const text = Number(fixed) === 0 ? fixed.replace('-', '') : fixed;
  return showMode === 'normal' ? text : `${text}%`;
}

const BOOL_WORDS: Readonly<Record<Locale, readonly [string, string]>> = {
  'zh-CN': ['是', '否'],
  'en-US': ['Yes', 'No'],
};

export function boolText(value: boolean, context?: DisplayContext): string {
  const [yes, no] = BOOL_WORDS[context?.locale ?? DEFAULT_DISPLAY_LOCALE];
  return value ? yes : no;
}

/** Several texts as one cell, the way checkbox lists are exchanged. */
export function joinTexts(texts: readonly string[]): string {
  return texts.filter((text) => text !== '').join(SELECT_ITEM_SEPARATOR);
}

/** Names of users or departments; an unknown id shows as itself. */
export function unitText(ids: string | readonly string[], context?: DisplayContext): string {
  return joinTexts(([] as string[]).concat(ids).map((id) => context?.unitName?.(id) ?? id));
}

/** Titles of associated rows; an unknown row shows its ObjectId. */
export function objectText(ids: string | readonly string[], context?: DisplayContext): string {
  return joinTexts(([] as string[]).concat(ids).map((id) => context?.objectName?.(id) ?? id));
}

/** Values whose shape the platform does not know (plugin, dynamic, looked-up values). */
export function plainText(value: unknown, context?: DisplayContext): string {
  if (value == null) return '';
  if (typeof value === 'boolean') return boolText(value, context);
  if (Array.isArray(value)) return joinTexts(value.map((item) => plainText(item, context)));
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
