import type { NumberFormat } from '@tritium/shared/report/index';
import type { ReportData } from '../api/dashboard-api.ts';

// How a widget's numbers and group values are shown (zh-CN and en-US number formats through Intl).

/** A measure value with its format: decimals, thousands separators, percent, unit. */
export function formatNumber(value: number | null | undefined, format: Partial<NumberFormat> | undefined, locale: string): string {
  if (value == null || Number.isNaN(value)) return '-';
  const decimals = format?.decimals ?? (Number.isInteger(value) ? 0 : 2);
  const text = new Intl.NumberFormat(locale, {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
    useGrouping: format?.thousands ?? true,
    ...(format?.percent ? { style: 'percent' } : {}),
  }).format(value);
  return format?.unit ? `${text} ${format.unit}` : text;
}

/** A group's value as shown: names of users and departments, 是/否, a blank group's word. */
export function groupText(value: unknown, column: ReportData['columns'][number] | undefined, labels: Record<string, string>, words: { blank: string; yes: string; no: string }): string {
  if (value == null || value === '') return words.blank;
  if (typeof value === 'boolean') return value ? words.yes : words.no;
  if (column && (column.dataType === 'user' || column.dataType === 'unit')) return labels[String(value)] ?? String(value);
  return String(value);
}

/** Change from the previous period, as a ratio (null when there is nothing to compare with). */
export function changeRatio(current: number | null, previous: number | null): number | null {
  if (current == null || previous == null || previous === 0) return null;
  return (current - previous) / Math.abs(previous);
}
