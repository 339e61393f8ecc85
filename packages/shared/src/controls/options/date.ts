/** Date attributes: DateTimeMode as a display format, default value and range (domain.md §3, §9). */
import { z } from 'zod';
import { DATE_TIME_DISPLAY_FORMATS, normalizeDisplayFormat } from '../../constants/formats.ts';
import { dateTimeValueSchema } from '../values.ts';

/** The control's display format; missing or unknown formats fall back to year-month-day-hour-minute. */
export const displayFormatSchema = z.preprocess(normalizeDisplayFormat, z.enum(DATE_TIME_DISPLAY_FORMATS));

/** 'now' fills in the moment the form opens. */
export const dateDefaultValueSchema = z.union([z.literal('now'), dateTimeValueSchema]).nullable().default(null);

/** RangeRule of a date: earliest and latest moment, either may be open. */
export const dateRangeSchema = z
  .object({ min: dateTimeValueSchema.nullable().default(null), max: dateTimeValueSchema.nullable().default(null) })
  .refine(
    (range) => range.min == null || range.max == null || Date.parse(range.min) <= Date.parse(range.max),
    '开始时间不能晚于结束时间',
  );
