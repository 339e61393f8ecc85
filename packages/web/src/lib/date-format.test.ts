import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { changeLocale } from './i18n.ts';
import { formatDate, formatDateTime, formatDateTimeSeconds, formatMonth, formatMonthDay, formatRecent, formatTime } from './date-format.ts';

// One format per kind of value, in the interface's language (ui.md "Visual language").
const moment = new Date(2026, 10, 29, 5, 27, 4);

describe('date display formats', () => {
  it('shows zh-CN dates as YYYY-MM-DD, date-times to the minute, seconds only when asked', () => {
    expect(formatDate(moment)).toBe('2026-11-29');
    expect(formatDateTime(moment.toISOString())).toBe('2026-11-29 05:27');
    expect(formatDateTimeSeconds(moment.getTime())).toBe('2026-11-29 05:27:04');
    expect(formatTime(moment)).toBe('05:27');
    expect(formatMonth(dayjs(moment))).toBe('2026-11');
    expect(formatMonthDay(moment)).toBe('11-29');
  });

  it('shows -- for an empty or unreadable moment', () => {
    expect(formatDateTime(null)).toBe('--');
    expect(formatDate('')).toBe('--');
    expect(formatDateTime('not a date')).toBe('--');
    expect(formatRecent(undefined)).toBe('--');
  });

  it('shows a recent moment as its time on the same day, as the full date-time before', () => {
    expect(formatRecent(moment, new Date(2026, 10, 29, 23, 0))).toBe('05:27');
    expect(formatRecent(moment, new Date(2026, 10, 30, 0, 1))).toBe('2026-11-29 05:27');
  });

  it('follows the interface language', async () => {
    await changeLocale('en-US');
    expect(formatDate(moment)).toBe('11/29/2026');
    expect(formatDateTime(moment)).toBe('11/29/2026 05:27');
    await changeLocale('zh-CN');
    expect(formatDateTime(moment)).toBe('2026-11-29 05:27');
  });
});
