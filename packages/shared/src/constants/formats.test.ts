import { describe, it, expect } from 'vitest';
import { DATE_TIME_DISPLAY_FORMATS, DEFAULT_DISPLAY_FORMAT, isSortableDataType, normalizeDisplayFormat } from './formats.ts';

describe('normalizeDisplayFormat', () => {
  it('falls back to year-month-day-hour-minute', () => {
    expect(DEFAULT_DISPLAY_FORMAT).toBe('yyyy-mm-dd hh:mm');
  });

  it.each(DATE_TIME_DISPLAY_FORMATS)('keeps the known format %j', (format) => {
    expect(normalizeDisplayFormat(format)).toBe(format);
  });

  it.each([
    ['YYYY-MM-DD', 'yyyy-mm-dd'],
    ['  yyyy-mm  ', 'yyyy-mm'],
    ['HH:MM', 'hh:mm'],
    ['yyyy-mm-dd   hh:mm', 'yyyy-mm-dd hh:mm'],
  ])('reads %j as %j', (value, expected) => {
    expect(normalizeDisplayFormat(value)).toBe(expected);
  });

  it.each([undefined, null, '', 'yyyy', 'yyyy/mm/dd', 'yyyy-mm-dd hh:mm:ss', 'dd-mm-yyyy', 42, {}])(
    'falls back for %j',
    (value) => {
      expect(normalizeDisplayFormat(value)).toBe('yyyy-mm-dd hh:mm');
    },
  );
});

describe('isSortableDataType', () => {
  it('allows only the six sortable types', () => {
    expect(['ShortString', 'DateTime', 'Int', 'Bool', 'Decimal', 'Double'].every(isSortableDataType)).toBe(true);
    expect(['LongString', 'Attachment', 'User', 'shortstring', ''].some(isSortableDataType)).toBe(false);
  });
});
