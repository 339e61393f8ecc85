import dayjs, { type Dayjs } from 'dayjs';

// 2024-05-20, 2024/5/20, 2024.5.20, 2024年5月20日, a month alone (2024-05, 2024年5月), then an optional time 14:30,
// 14:30:15 or 14时30分 after a space or a T; or a time alone. The same spellings the server reads on import
// (packages/shared/src/controls/input-values.ts), but in this browser's time zone, as the pickers work.
const TYPED =
  /^(?:(\d{4})\s*[-/.年]\s*(\d{1,2})\s*(?:[-/.月]\s*(\d{1,2})\s*[日号]?|月)?)?\s*T?\s*(?:(\d{1,2})\s*[:：时]\s*(\d{1,2})\s*(?:[:：分]\s*(\d{1,2})\s*秒?|分)?)?$/;
const COMPACT = /^(\d{4})(\d{2})(\d{2})$/;

/**
 * A date or date-time as a person types it, or null when it cannot be read. A date without a time is its midnight; a
 * month alone is its first day; a time alone falls on `day`. Impossible dates (2024-02-30, 24:00) are not read.
 */
export function parseTypedDate(input: string, day: Dayjs = dayjs()): Dayjs | null {
  const text = input.trim().replace(COMPACT, '$1-$2-$3');
  const m = TYPED.exec(text);
  if (!text || !m) return null;
  const [, y, mo, d, h, mi, s] = m.map((part) => (part === undefined ? undefined : Number(part)));
  if (y === undefined && h === undefined) return null;
  if ((h ?? 0) > 23 || (mi ?? 0) > 59 || (s ?? 0) > 59) return null;
  if (y === undefined) return day.hour(h!).minute(mi!).second(s ?? 0).millisecond(0);
  const at = new Date(y, mo! - 1, d ?? 1, h ?? 0, mi ?? 0, s ?? 0);
  at.setFullYear(y);
  // The Date rolls 02-30 over to March, which tells an impossible date apart.
  if (at.getMonth() !== mo! - 1 || at.getDate() !== (d ?? 1)) return null;
  return dayjs(at);
}
