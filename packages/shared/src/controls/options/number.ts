/** Number attributes of number, formula and rollup controls: DecimalPlaces, showMode, RangeRule (domain.md §3). */
import { z } from 'zod';
import { DEFAULT_DECIMAL_PLACES, PERCENT_DECIMAL_PLACES } from '../../constants/form.ts';

// How a number reads: plain, as a percentage, or as a bar filled to the percentage.
export const NUMBER_SHOW_MODES = ['normal', 'percentage', 'bar'] as const;
export type NumberShowMode = (typeof NUMBER_SHOW_MODES)[number];

// The product stores numbers with up to 16 decimals.
export const NUMBER_MAX_DECIMAL_PLACES = 16;

/** DecimalPlaces left out means "the default for the show mode", filled in by withDecimalDefault. */
export const numberDisplayShape = {
  decimalPlaces: z.number().int().min(0).max(NUMBER_MAX_DECIMAL_PLACES).optional(),
  showMode: z.enum(NUMBER_SHOW_MODES).default('normal'),
};

/** domain.md §3: 0 decimals, or 2 when shown as a percentage or bar. */
export function defaultDecimalPlaces(showMode: NumberShowMode): number {
  return showMode === 'normal' ? DEFAULT_DECIMAL_PLACES : PERCENT_DECIMAL_PLACES;
}

export function withDecimalDefault<T extends { decimalPlaces?: number; showMode: NumberShowMode }>(
  options: T,
): Omit<T, 'decimalPlaces'> & { decimalPlaces: number } {
  return { ...options, decimalPlaces: options.decimalPlaces ?? defaultDecimalPlaces(options.showMode) };
}

/** The decimal places of a number control as stored (an options object not parsed yet: its show mode's default). */
export function decimalPlacesOf(options: { decimalPlaces?: unknown; showMode?: unknown }): number {
  if (typeof options.decimalPlaces === 'number') return options.decimalPlaces;
  return defaultDecimalPlaces(options.showMode === 'percentage' || options.showMode === 'bar' ? options.showMode : 'normal');
}

/** Digits after the decimal point of a number in its shortest form: 2380.5 → 1, 2380.50 → 1, 1e-7 → 7. */
export function fractionDigits(value: number): number {
  const m = /^-?\d+(?:\.(\d+))?(?:e([+-]\d+))?$/i.exec(String(value));
  return m ? Math.max(0, (m[1]?.length ?? 0) - Number(m[2] ?? 0)) : 0;
}

/** RangeRule of a number: either bound may be open; a closed range must not be reversed. */
export const numberRangeSchema = z
  .object({ min: z.number().nullable().default(null), max: z.number().nullable().default(null) })
  .refine((range) => range.min == null || range.max == null || range.min <= range.max, '最小值不能大于最大值');
