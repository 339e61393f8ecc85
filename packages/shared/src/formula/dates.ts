/**
 * Dates inside formulas. Time zone rule (docs/decisions/0012): calendar fields (year … second) are read and written
 * in Asia/Shanghai, the zone the product shows dates in (controls/display.ts). China has kept UTC+8 without daylight
 * saving since 1991, so the zone is applied as a fixed +08:00 offset: the same on every server and browser,
 * whatever the machine's own zone.
 */

export const FORMULA_TIME_ZONE = 'Asia/Shanghai';
const OFFSET_MS = 8 * 3600_000;
export const DAY_MS = 86_400_000;

/** A moment; `dateOnly` when it came from a date without a time (TODAY, DATE(y,m,d), "2024-01-31"). */
export class FormulaDate {
  constructor(readonly ms: number, readonly dateOnly = false) {}
}

export interface CivilTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** 0 = Sunday. */
  weekday: number;
}

export function civilOf(date: FormulaDate): CivilTime {
  const d = new Date(date.ms + OFFSET_MS);
  return {
    year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(),
    hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: d.getUTCSeconds(), weekday: d.getUTCDay(),
  };
}

/** Calendar fields in Shanghai to a moment; out-of-range fields roll over (month 13 is January next year). */
export function fromCivil(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, 0);
  return d.getTime() - OFFSET_MS;
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

const LOCAL_TEXT = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?$/;
const ISO_MOMENT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** A registry date-time value (ISO-8601 with an offset). Field values of this shape are read as dates. */
export function isIsoMoment(text: string): boolean {
  return ISO_MOMENT.test(text);
}

/**
 * Text as a date: an ISO moment with offset, or `yyyy-MM-dd`, `yyyy-MM-dd HH:mm[:ss]`, `yyyy/MM/dd…` read in
 * Shanghai. Impossible calendar dates (2023-02-29) are not dates.
 */
export function parseDateText(text: string): FormulaDate | null {
  const trimmed = text.trim();
  if (isIsoMoment(trimmed)) {
    const ms = Date.parse(trimmed);
    return Number.isNaN(ms) ? null : new FormulaDate(ms);
  }
  const m = LOCAL_TEXT.exec(trimmed);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4] ?? '0', m[5] ?? '0', m[6] ?? '0'].map(Number);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59 || second > 59) return null;
  return new FormulaDate(fromCivil(year, month, day, hour, minute, second), m[4] === undefined);
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** The registry's date-time value: ISO-8601 with seconds and the +08:00 offset, e.g. 2024-02-29T00:00:00+08:00. */
export function toIsoValue(date: FormulaDate): string {
  const c = civilOf(date);
  return `${pad(c.year, 4)}-${pad(c.month)}-${pad(c.day)}T${pad(c.hour)}:${pad(c.minute)}:${pad(c.second)}+08:00`;
}

/** A date as text, as the product shows it: yyyy-MM-dd for dates, yyyy-MM-dd HH:mm:ss for moments. */
export function dateText(date: FormulaDate): string {
  return formatDate(date, date.dateOnly ? 'yyyy-MM-dd' : 'yyyy-MM-dd HH:mm:ss');
}

/** Pattern letters: yyyy yy MM M dd d HH H mm m ss s (TEXT with a date). */
export function formatDate(date: FormulaDate, pattern: string): string {
  const c = civilOf(date);
  const parts: Record<string, string> = {
    yyyy: pad(c.year, 4), yy: pad(c.year % 100), MM: pad(c.month), M: String(c.month), dd: pad(c.day), d: String(c.day),
    HH: pad(c.hour), H: String(c.hour), hh: pad(c.hour), mm: pad(c.minute), m: String(c.minute), ss: pad(c.second), s: String(c.second),
  };
  return pattern.replace(/yyyy|yy|MM|M|dd|d|HH|H|hh|mm|m|ss|s/g, (token) => parts[token]);
}

/** Adds calendar months, keeping the time; a day past the new month's end becomes its last day (01-31 + 1 → 02-29). */
export function addMonths(date: FormulaDate, months: number): FormulaDate {
  const c = civilOf(date);
  const whole = Math.trunc(months);
  const index = c.year * 12 + (c.month - 1) + whole;
  const year = Math.floor(index / 12);
  const month = (index % 12 + 12) % 12 + 1;
  const day = Math.min(c.day, daysInMonth(year, month));
  return new FormulaDate(fromCivil(year, month, day, c.hour, c.minute, c.second), date.dateOnly);
}

/** The midnight (Shanghai) starting the date's day. */
export function startOfDay(date: FormulaDate): FormulaDate {
  const c = civilOf(date);
  return new FormulaDate(fromCivil(c.year, c.month, c.day), true);
}

/** Excel's DATEDIF on calendar dates in Shanghai: units Y, M, D, MD, YM, YD. null when start is after end. */
export function dateDif(start: FormulaDate, end: FormulaDate, unit: string): number | null {
  const s = civilOf(start);
  const e = civilOf(end);
  const startDay = startOfDay(start).ms;
  const endDay = startOfDay(end).ms;
  if (startDay > endDay) return null;
  let months = (e.year - s.year) * 12 + (e.month - s.month);
  if (e.day < s.day) months -= 1;
  switch (unit.toUpperCase()) {
    case 'Y':
      return Math.floor(months / 12);
    case 'M':
      return months;
    case 'D':
      return Math.round((endDay - startDay) / DAY_MS);
    case 'YM':
      return months % 12;
    case 'MD':
      // Days since the last whole month: 01-31 → 03-01 is one month (to 02-29, the month's end) and 1 day.
      return Math.round((endDay - addMonths(new FormulaDate(startDay, true), months).ms) / DAY_MS);
    case 'YD': {
      let anniversary = addMonths(new FormulaDate(startDay, true), Math.floor(months / 12) * 12);
      if (anniversary.ms > endDay) anniversary = addMonths(anniversary, -12);
      return Math.round((endDay - anniversary.ms) / DAY_MS);
    }
    default:
      return null;
  }
}

/** Week of the year, weeks starting on Sunday and 1 January in week 1 (Excel WEEKNUM type 1). */
export function weekNumber(date: FormulaDate): number {
  const c = civilOf(date);
  const jan1 = civilOf(new FormulaDate(fromCivil(c.year, 1, 1)));
  const dayOfYear = Math.round((startOfDay(date).ms - fromCivil(c.year, 1, 1)) / DAY_MS);
  return Math.floor((dayOfYear + jan1.weekday) / 7) + 1;
}
