import { describe, expect, it } from 'vitest';
import { formatDateTime } from './display.ts';

// China time worked out without Intl from 1992 on (display.ts dateParts): the same text Intl gives, for any moment.
const intl = new Intl.DateTimeFormat('en-US', { timeZone: 'Asia/Shanghai', hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
function byIntl(moment: Date): string {
  const p = Object.fromEntries(intl.formatToParts(moment).map((part) => [part.type, part.value]));
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
}

describe('China time of a moment', () => {
  it('matches Intl for moments from 1992 to 2099, day and year boundaries included', () => {
    const from = Date.UTC(1992, 0, 1);
    const to = Date.UTC(2099, 11, 31);
    const moments = [from, Date.UTC(2024, 1, 28, 16, 0, 0), Date.UTC(2024, 11, 31, 15, 59, 59), Date.UTC(2024, 11, 31, 16, 0, 0), Date.UTC(2026, 10, 27, 23, 59, 59, 999)];
    let seed = 26;
    for (let i = 0; i < 3000; i++) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      moments.push(from + Math.floor((seed / 2147483648) * (to - from)));
    }
    for (const t of moments) expect(formatDateTime(new Date(t).toISOString(), 'yyyy-mm-dd hh:mm:ss')).toBe(byIntl(new Date(t)));
  });

  it('still knows the daylight saving China kept until 1991', () => {
    // 1988-07-01 12:00 UTC was 21:00 in China (UTC+9 that summer).
    expect(formatDateTime('1988-07-01T12:00:00Z', 'yyyy-mm-dd hh:mm')).toBe('1988-07-01 21:00');
    expect(formatDateTime('1988-07-01T12:00:00Z', 'yyyy-mm-dd hh:mm')).toBe(byIntl(new Date('1988-07-01T12:00:00Z')).slice(0, 16));
  });
});
