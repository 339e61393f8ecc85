/**
 * Dynamic filter values (operator Dynamic): computed when the query runs. Dates are calendar ranges in the
 * engine's zone, Asia/Shanghai (UTC+8, no daylight saving since 1991, so a fixed offset is exact); weeks start on
 * Monday as in the product. docs/decisions/0013-query-engine.md.
 */
import type { ControlDataType } from '../controls/types.ts';

export const DYNAMIC_DATE_VALUES = [
  'Today', 'Yesterday', 'Tomorrow',
  'ThisWeek', 'LastWeek', 'NextWeek',
  'ThisMonth', 'LastMonth', 'NextMonth',
  'ThisQuarter', 'LastQuarter',
  'ThisYear', 'LastYear',
  'Last7Days', 'Last30Days',
] as const;
export type DynamicDateValue = (typeof DYNAMIC_DATE_VALUES)[number];

/** CurrentUser: the caller. MyDepartment: any department the caller belongs to; …AndSub: and the departments below. */
export const DYNAMIC_ORG_VALUES = ['CurrentUser', 'MyDepartment', 'MyDepartmentAndSub'] as const;
export type DynamicOrgValue = (typeof DYNAMIC_ORG_VALUES)[number];

export const DYNAMIC_VALUES = [...DYNAMIC_ORG_VALUES, ...DYNAMIC_DATE_VALUES] as const;
export type DynamicValue = (typeof DYNAMIC_VALUES)[number];

/** Which dynamic values a data type takes. */
export function dynamicValuesFor(dataType: ControlDataType): readonly DynamicValue[] {
  if (dataType === 'datetime') return DYNAMIC_DATE_VALUES;
  if (dataType === 'user' || dataType === 'users') return ['CurrentUser'];
  if (dataType === 'unit' || dataType === 'units') return ['MyDepartment', 'MyDepartmentAndSub'];
  return [];
}

/** Minutes east of UTC of the engine's zone (Asia/Shanghai). */
export const SHANGHAI_OFFSET_MINUTES = 8 * 60;

const DAY = 86_400_000;

/** Midnight (in the zone) of the day holding `t`, as a UTC instant in ms. */
function startOfDay(t: number, offsetMs: number): number {
  return Math.floor((t + offsetMs) / DAY) * DAY - offsetMs;
}

/** The instant of local midnight of y-m-d (month 0-based, may overflow: Date.UTC normalises). */
const localMidnight = (y: number, m: number, d: number, offsetMs: number) => Date.UTC(y, m, d) - offsetMs;

/**
 * The half-open range [from, to) of a dynamic date value at `now`, in the given zone offset (default Shanghai).
 * Last7Days / Last30Days end with today and include it.
 */
export function dynamicDateRange(value: DynamicDateValue, now: Date, offsetMinutes = SHANGHAI_OFFSET_MINUTES): { from: Date; to: Date } {
  const off = offsetMinutes * 60_000;
  const local = new Date(now.getTime() + off);
  const y = local.getUTCFullYear();
  const m = local.getUTCMonth();
  const today = startOfDay(now.getTime(), off);
  const monday = today - ((local.getUTCDay() + 6) % 7) * DAY;
  const q = Math.floor(m / 3) * 3;
  const range = (from: number, to: number) => ({ from: new Date(from), to: new Date(to) });
  switch (value) {
    case 'Today': return range(today, today + DAY);
    case 'Yesterday': return range(today - DAY, today);
    case 'Tomorrow': return range(today + DAY, today + 2 * DAY);
    case 'ThisWeek': return range(monday, monday + 7 * DAY);
    case 'LastWeek': return range(monday - 7 * DAY, monday);
    case 'NextWeek': return range(monday + 7 * DAY, monday + 14 * DAY);
    case 'ThisMonth': return range(localMidnight(y, m, 1, off), localMidnight(y, m + 1, 1, off));
    case 'LastMonth': return range(localMidnight(y, m - 1, 1, off), localMidnight(y, m, 1, off));
    case 'NextMonth': return range(localMidnight(y, m + 1, 1, off), localMidnight(y, m + 2, 1, off));
    case 'ThisQuarter': return range(localMidnight(y, q, 1, off), localMidnight(y, q + 3, 1, off));
    case 'LastQuarter': return range(localMidnight(y, q - 3, 1, off), localMidnight(y, q, 1, off));
    case 'ThisYear': return range(localMidnight(y, 0, 1, off), localMidnight(y + 1, 0, 1, off));
    case 'LastYear': return range(localMidnight(y - 1, 0, 1, off), localMidnight(y, 0, 1, off));
    case 'Last7Days': return range(today - 6 * DAY, today + DAY);
    case 'Last30Days': return range(today - 29 * DAY, today + DAY);
  }
}

/** A date-only value 'yyyy-mm-dd' → the range of that day in the zone; null for anything else. */
export function dayRange(value: string, offsetMinutes = SHANGHAI_OFFSET_MINUTES): { from: Date; to: Date } | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return null;
  const off = offsetMinutes * 60_000;
  const from = localMidnight(Number(match[1]), Number(match[2]) - 1, Number(match[3]), off);
  if (new Date(from + off).getUTCDate() !== Number(match[3])) return null;
  return { from: new Date(from), to: new Date(from + DAY) };
}
