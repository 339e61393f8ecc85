/**
 * Values while a formula runs, and the conversions between them (the null rules of docs/decisions/0012).
 * Empty is `null`: a missing field, '', an empty list. Lists come from sub-table columns, multi-select fields and
 * SPLIT; objects are values the language does not look into except through functions (addresses).
 */
import { dateText, FormulaDate, isIsoMoment, parseDateText, toIsoValue } from './dates.ts';

export type FormulaValue = number | string | boolean | null | FormulaDate | FormulaValue[] | { readonly [key: string]: unknown };

/** What a formula gives back: dates as registry date-time strings (+08:00), lists as arrays. */
export type FormulaOutput = number | string | boolean | null | FormulaOutput[] | { readonly [key: string]: unknown };

export function isEmpty(value: FormulaValue): boolean {
  return value === null || value === '' || (Array.isArray(value) && value.every(isEmpty));
}

/** A field's stored value (registry format) as a formula value: ISO moments become dates, '' becomes null. */
export function fromFieldValue(raw: unknown): FormulaValue {
  if (raw === undefined || raw === null || raw === '') return null;
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw : null;
  if (typeof raw === 'string') return isIsoMoment(raw.trim()) ? (parseDateText(raw) ?? raw) : raw;
  if (typeof raw === 'boolean') return raw;
  if (raw instanceof Date) return Number.isNaN(raw.getTime()) ? null : new FormulaDate(raw.getTime());
  if (raw instanceof FormulaDate) return raw;
  if (Array.isArray(raw)) return raw.map(fromFieldValue);
  if (typeof raw === 'object') return raw as Record<string, unknown>;
  return String(raw);
}

/** Binary noise of floating point removed: 0.1 + 0.2 is 0.3 (15 significant digits, as spreadsheets do). */
export function cleanNumber(n: number): number {
  if (!Number.isFinite(n)) return n;
  const cleaned = Number(n.toPrecision(15));
  return cleaned === 0 ? 0 : cleaned;
}

/** null → 0, true → 1, numeric text → its number, a date → its epoch days; other text → NaN. */
export function toNumber(value: FormulaValue): number {
  if (value === null) return 0;
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string') {
    const text = value.trim();
    if (text === '') return 0;
    const n = Number(text.replace(/,/g, ''));
    return Number.isNaN(n) ? NaN : n;
  }
  return NaN;
}

/** null → '', numbers plainly, true/false, dates as yyyy-MM-dd[ HH:mm:ss], lists joined with ';' (the product's multi-select text). */
export function toText(value: FormulaValue): string {
  if (value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? String(cleanNumber(value)) : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value instanceof FormulaDate) return dateText(value);
  if (Array.isArray(value)) return value.filter((item) => !isEmpty(item)).map(toText).join(';');
  return JSON.stringify(value);
}

/** Empty, 0, false and the text "false" are false; everything else is true. */
export function toBool(value: FormulaValue): boolean {
  if (value === null) return false;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0 && !Number.isNaN(value);
  if (typeof value === 'string') return value !== '' && value.trim().toLowerCase() !== 'false';
  if (Array.isArray(value)) return !isEmpty(value);
  return true;
}

/** A date, or text that reads as one; otherwise null. */
export function toDate(value: FormulaValue): FormulaDate | null {
  if (value instanceof FormulaDate) return value;
  if (typeof value === 'string') return parseDateText(value);
  return null;
}

/** Every item of lists (nested) and single values, in order. */
export function flatten(values: readonly FormulaValue[]): FormulaValue[] {
  return values.flatMap((value) => (Array.isArray(value) ? flatten(value) : [value]));
}

/** The value handed back to callers. */
export function toOutput(value: FormulaValue): FormulaOutput {
  if (value instanceof FormulaDate) return toIsoValue(value);
  if (typeof value === 'number') return Number.isFinite(value) ? cleanNumber(value) : null;
  if (Array.isArray(value)) return value.map(toOutput);
  if (value === '') return null;
  return value;
}
