import { excelJs } from '../../lib/lazy-packages.ts';
import type { NumberFormat, Widget } from '@tritium/shared/report/index';
import type { QueryNode } from '@tritium/shared/query/index';
import type { NodeContext } from '../function-node/node-context.ts';
import { widgetData, type ReportDeps } from './report-data.service.ts';

// A widget's numbers as an .xlsx sheet (issue 22 "export of the table to xlsx"): the same answer the widget draws —
// the same statement, scope and cache — one row per group, then the subtotals and the total; measures stay numbers
// with the widget's number format, group values are written as the viewer reads them (names, 是/否).

/** An Excel number format for a measure's format: decimals, separators, percent and unit. */
export function excelFormat(format: Partial<NumberFormat> | undefined): string | undefined {
  if (!format) return undefined;
  const decimals = format.decimals ? `.${'0'.repeat(format.decimals)}` : '';
  const base = `${format.thousands === false ? '0' : '#,##0'}${decimals}${format.percent ? '%' : ''}`;
  return format.unit ? `${base}" ${format.unit.replace(/"/g, '')}"` : base;
}

export async function exportWidget(ctx: NodeContext, widget: Widget, filter: QueryNode | undefined, deps: ReportDeps): Promise<{ name: string; body: Buffer }> {
  const data = await widgetData(ctx, widget, filter, deps);
  const d = data.columns.filter((c) => c.kind === 'dimension').length;
  const text = (value: unknown, i: number) => {
    if (value == null || value === '') return '（空）';
    if (typeof value === 'boolean') return value ? '是' : '否';
    const column = data.columns[i];
    if (column?.dataType === 'user' || column?.dataType === 'unit') return data.labels[String(value)] ?? String(value);
    return value as string | number;
  };
  const row = (values: unknown[], first?: string) => values.map((v, i) => (i < d ? (i === 0 && first ? first : text(v, i)) : v));
  const workbook = new (await excelJs()).Workbook();
  const title = widget.title || '报表';
  const sheet = workbook.addWorksheet(title.replace(/[\\/?*[\]:]/g, ' ').slice(0, 31));
  sheet.columns = data.columns.map((c, i) => ({ header: c.label, key: c.key, width: i < d ? 18 : 14, style: i < d ? {} : { numFmt: excelFormat(widget.measures[i - d]?.format) } }));
  sheet.getRow(1).font = { bold: true };
  for (const r of data.rows) sheet.addRow(row(r));
  for (const r of data.subtotals) sheet.addRow(row(r.map((v, i) => (i > 0 && i < d ? null : v)))).font = { italic: true };
  for (const r of data.columnTotals) sheet.addRow(row(r, '合计')).font = { italic: true };
  if (data.totals) sheet.addRow(row(data.totals, '合计')).font = { bold: true };
  return { name: `${title}.xlsx`, body: Buffer.from(await workbook.xlsx.writeBuffer()) };
}
