/** Result type (bindType) and display of computed controls: formula and rollup (domain.md §3, calls.md §3). */
import { z } from 'zod';
import { DEFAULT_DISPLAY_FORMAT } from '../../constants/formats.ts';
import { boolText, formatDateTime, formatNumber } from '../display.ts';
import type { ControlStorage, DisplayContext } from '../types.ts';
import { displayFormatSchema } from './date.ts';
import { numberDisplayShape, type NumberShowMode } from './number.ts';

/** What a computed control produces. Stored lower-cased (calls.md §3), so any case is read. */
export const BIND_TYPES = ['decimal', 'string', 'datetime', 'bool'] as const;
export type BindType = (typeof BIND_TYPES)[number];

export const bindTypeSchema = z
  .preprocess((value) => (typeof value === 'string' ? value.trim().toLowerCase() : value), z.enum(BIND_TYPES))
  .default('decimal');

/** Attributes of the result; DecimalPlaces and showMode apply to decimal results, displayFormat to dates. */
export const computedResultShape = {
  bindType: bindTypeSchema,
  ...numberDisplayShape,
  displayFormat: displayFormatSchema,
};

/** The runtime may send the result it showed; the server computes it again before saving. */
export const computedValueSchema = z.union([z.number(), z.string(), z.boolean()]);

const STORAGE: Readonly<Record<BindType, ControlStorage>> = {
  decimal: { dataType: 'decimal', column: { sqlType: 'numeric' } },
  string: { dataType: 'string', column: { sqlType: 'text' } },
  datetime: { dataType: 'datetime', column: { sqlType: 'timestamptz' } },
  bool: { dataType: 'bool', column: { sqlType: 'boolean' } },
};

export function computedStorage(options: { bindType: BindType }): ControlStorage {
  return STORAGE[options.bindType];
}

interface ComputedDisplayOptions {
  bindType: BindType;
  decimalPlaces: number;
  showMode: NumberShowMode;
  displayFormat?: Parameters<typeof formatDateTime>[1];
}

export function computedDisplayText(
  value: string | number | boolean | null | undefined,
  options: ComputedDisplayOptions,
  context?: DisplayContext,
): string {
  if (value == null || value === '') return '';
  if (typeof value === 'boolean') return boolText(value, context);
  if (typeof value === 'number') return formatNumber(value, options.decimalPlaces, options.showMode);
  if (options.bindType === 'datetime') {
    return formatDateTime(value, options.displayFormat ?? DEFAULT_DISPLAY_FORMAT, context?.timeZone);
  }
  return value;
}
