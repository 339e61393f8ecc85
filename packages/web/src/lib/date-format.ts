import { currentLocale, type AppLocale } from './i18n.ts';

/**
 * How dates and times are shown: one format per kind of value in each language (ui.md "Visual language": dates in
 * the zh-CN formats of the spec). For display only; inputs keep their pickers. Without dayjs, so a sign-in page may
 * show a time without loading it (docs/decisions/0084).
 */
type Kind = 'date' | 'dateTime' | 'dateTimeSeconds' | 'time' | 'month' | 'monthDay';

const FORMATS: Record<AppLocale, Record<Kind, string>> = {
  'zh-CN': { date: 'YYYY-MM-DD', dateTime: 'YYYY-MM-DD HH:mm', dateTimeSeconds: 'YYYY-MM-DD HH:mm:ss', time: 'HH:mm', month: 'YYYY-MM', monthDay: 'MM-DD' },
  'en-US': { date: 'MM/DD/YYYY', dateTime: 'MM/DD/YYYY HH:mm', dateTimeSeconds: 'MM/DD/YYYY HH:mm:ss', time: 'HH:mm', month: 'MM/YYYY', monthDay: 'MM/DD' },
};

/** What an empty or unreadable moment shows (ui.md: empty values show as `--`). */
export const EMPTY_DATE = '--';

/** An ISO string, epoch milliseconds, a Date or a dayjs value. */
export type DateValue = string | number | Date | { toDate(): Date } | null | undefined;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function toDate(value: DateValue): Date | null {
  if (value == null || value === '') return null;
  const date = typeof value === 'object' && 'toDate' in value ? value.toDate() : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

function format(value: DateValue, kind: Kind): string {
  const d = toDate(value);
  if (!d) return EMPTY_DATE;
  const parts: Record<string, string> = {
    YYYY: pad(d.getFullYear(), 4), MM: pad(d.getMonth() + 1), DD: pad(d.getDate()),
    HH: pad(d.getHours()), mm: pad(d.getMinutes()), ss: pad(d.getSeconds()),
  };
  return FORMATS[currentLocale()][kind].replace(/YYYY|MM|DD|HH|mm|ss/g, (token) => parts[token]!);
}

/** A day: 2026-11-29. */
export const formatDate = (value: DateValue) => format(value, 'date');
/** A moment to the minute: 2026-11-29 05:27. */
export const formatDateTime = (value: DateValue) => format(value, 'dateTime');
/** A moment to the second, where seconds matter (logs): 2026-11-29 05:27:04. */
export const formatDateTimeSeconds = (value: DateValue) => format(value, 'dateTimeSeconds');
/** A time of day: 05:27. */
export const formatTime = (value: DateValue) => format(value, 'time');
/** A month, as on a timeline's axis: 2026-11. */
export const formatMonth = (value: DateValue) => format(value, 'month');
/** A day of a month, as on a timeline's axis: 11-29. */
export const formatMonthDay = (value: DateValue) => format(value, 'monthDay');

/** A recent moment, as in a message list: the time alone on the same day, the full date-time otherwise. */
export function formatRecent(value: DateValue, now: DateValue = Date.now()): string {
  const d = toDate(value);
  const today = toDate(now);
  return d && today && d.toDateString() === today.toDateString() ? formatTime(d) : formatDateTime(d);
}
