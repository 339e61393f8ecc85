import type ExcelJS from 'exceljs';
import { PRINT_FONT_STACK } from '@tritium/shared/print/index';

// A filled Excel template as PDF (issue 24; docs/decisions/0066): each worksheet becomes an HTML table — column widths,
// row heights, merged cells, fonts, alignment, borders and fills as the workbook has them — and the document goes
// through the same Chromium page.pdf as the print templates, so CJK text comes from the same system fonts. The paper,
// orientation and margins are the first sheet's page setup (A4 portrait when it has none); a sheet wider than the paper
// is scaled down to its width; the sheet's "rows to repeat at top" repeat on every page. Each record starts a new page.

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const r2 = (v: number) => Number(v.toFixed(2));

/** Excel's paper codes (ECMA-376 §18.18.42) the setup may name, in mm portrait; others print as A4. */
const PAPERS: Record<number, [number, number]> = { 1: [215.9, 279.4], 5: [215.9, 355.6], 8: [297, 420], 9: [210, 297], 11: [148, 210], 13: [182, 257] };
/** Column width in characters → mm (Excel's default font: 7 px a character plus 5 px padding, at 96 dpi). */
const columnMm = (chars: number | undefined) => (((chars ?? 8.43) * 7 + 5) * 25.4) / 96;
/** Row height in points → mm. */
const rowMm = (pt: number | undefined) => ((pt ?? 15) * 25.4) / 72;

export interface ExcelPage {
  width: number;
  height: number;
  margins: { top: number; right: number; bottom: number; left: number };
}

/** The paper of a sheet's page setup, in mm as it lies. */
export function excelPageOf(sheet: ExcelJS.Worksheet | undefined): ExcelPage {
  const setup = sheet?.pageSetup;
  const [w, h] = PAPERS[setup?.paperSize ?? 9] ?? PAPERS[9]!;
  const landscape = setup?.orientation === 'landscape';
  const m = setup?.margins;
  const inch = (v: number | undefined, fallback: number) => r2((v ?? fallback) * 25.4);
  return {
    width: landscape ? h : w,
    height: landscape ? w : h,
    margins: { top: inch(m?.top, 0.75), right: inch(m?.right, 0.7), bottom: inch(m?.bottom, 0.75), left: inch(m?.left, 0.7) },
  };
}

function argb(color: Partial<ExcelJS.Color> | undefined): string | undefined {
  const v = color?.argb;
  return v && /^[0-9A-Fa-f]{8}$/.test(v) ? `#${v.slice(2)}` : undefined;
}

const BORDER: Record<string, string> = { thin: '0.25mm solid', hair: '0.15mm solid', dotted: '0.25mm dotted', dashed: '0.25mm dashed', medium: '0.5mm solid', thick: '0.8mm solid', double: '0.8mm double' };

function cellStyle(cell: ExcelJS.Cell): string {
  const out: string[] = [];
  const f = cell.font;
  if (f?.bold) out.push('font-weight:bold');
  if (f?.italic) out.push('font-style:italic');
  if (f?.underline) out.push('text-decoration:underline');
  if (f?.size) out.push(`font-size:${f.size}pt`);
  const color = argb(f?.color);
  if (color) out.push(`color:${color}`);
  const a = cell.alignment;
  const numeric = typeof cell.value === 'number';
  const horizontal = a?.horizontal === 'center' || a?.horizontal === 'centerContinuous' ? 'center' : a?.horizontal === 'right' ? 'right' : a?.horizontal === 'left' ? 'left' : numeric ? 'right' : undefined;
  if (horizontal) out.push(`text-align:${horizontal}`);
  out.push(`vertical-align:${a?.vertical === 'top' ? 'top' : a?.vertical === 'middle' ? 'middle' : 'bottom'}`);
  out.push(`white-space:${a?.wrapText ? 'pre-wrap' : 'pre'}`);
  for (const side of ['top', 'right', 'bottom', 'left'] as const) {
    const b = cell.border?.[side];
    if (b?.style) out.push(`border-${side}:${BORDER[b.style] ?? BORDER.thin} ${argb(b.color) ?? '#000'}`);
  }
  const fill = cell.fill;
  if (fill?.type === 'pattern' && fill.pattern === 'solid') {
    const bg = argb(fill.fgColor);
    if (bg) out.push(`background:${bg}`);
  }
  return out.join(';');
}

interface Merge {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

function mergesOf(sheet: ExcelJS.Worksheet): Merge[] {
  const ranges = (sheet.model as { merges?: string[] }).merges ?? [];
  const col = (letters: string) => [...letters].reduce((n, c) => n * 26 + c.charCodeAt(0) - 64, 0);
  return ranges.flatMap((range) => {
    const m = range.match(/^\$?([A-Z]+)\$?(\d+):\$?([A-Z]+)\$?(\d+)$/);
    return m ? [{ left: col(m[1]!), top: Number(m[2]), right: col(m[3]!), bottom: Number(m[4]) }] : [];
  });
}

/** The rows a sheet repeats at the top of every page ("1:2" or "$1:$2"). */
function repeatedRows(sheet: ExcelJS.Worksheet): number {
  const m = sheet.pageSetup?.printTitlesRow?.match(/^\$?(\d+):\$?(\d+)$/);
  return m && Number(m[1]) === 1 ? Number(m[2]) : 0;
}

/** One worksheet as a table; `width` is the printable width (mm) it is scaled into when wider. */
function sheetTable(sheet: ExcelJS.Worksheet, width: number): string {
  const rows = sheet.actualRowCount ? sheet.rowCount : 0;
  const cols = sheet.columnCount;
  if (!rows || !cols) return '';
  const merges = mergesOf(sheet);
  const covered = new Set<string>();
  const span = new Map<string, Merge>();
  for (const m of merges) {
    span.set(`${m.top}:${m.left}`, m);
    for (let r = m.top; r <= m.bottom; r++) for (let c = m.left; c <= m.right; c++) if (r !== m.top || c !== m.left) covered.add(`${r}:${c}`);
  }
  const widths = Array.from({ length: cols }, (_, i) => (sheet.getColumn(i + 1).hidden ? 0 : columnMm(sheet.getColumn(i + 1).width)));
  const total = widths.reduce((a, b) => a + b, 0);
  const zoom = total > width ? width / total : 1;
  const colgroup = `<colgroup>${widths.map((w) => `<col style="width:${r2(w)}mm"/>`).join('')}</colgroup>`;
  const head = repeatedRows(sheet);
  const line = (r: number) => {
    const row = sheet.getRow(r);
    if (row.hidden) return '';
    const cells: string[] = [];
    for (let c = 1; c <= cols; c++) {
      if (covered.has(`${r}:${c}`)) continue;
      const cell = row.getCell(c);
      const m = span.get(`${r}:${c}`);
      const spans = m ? `${m.bottom > m.top ? ` rowspan="${m.bottom - m.top + 1}"` : ''}${m.right > m.left ? ` colspan="${m.right - m.left + 1}"` : ''}` : '';
      cells.push(`<td${spans} style="${cellStyle(cell)}">${esc(cell.text ?? '')}</td>`);
    }
    return `<tr style="height:${r2(rowMm(row.height))}mm">${cells.join('')}</tr>`;
  };
  const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => line(from + i)).join('');
  return `<table class="xl" data-sheet="${esc(sheet.name)}" style="width:${r2(total)}mm${zoom < 1 ? `;zoom:${zoom.toFixed(4)}` : ''}">${colgroup}${head ? `<thead>${range(1, head)}</thead>` : ''}<tbody>${range(head + 1, rows)}</tbody></table>`;
}

/** Filled workbooks (one a record) as one HTML document for page.pdf: every visible sheet of every record from a new page. */
export function workbooksHtml(workbooks: ExcelJS.Workbook[], title: string): string {
  const page = excelPageOf(workbooks[0]?.worksheets[0]);
  const m = page.margins;
  const width = page.width - m.left - m.right;
  const sections = workbooks.flatMap((wb) => wb.worksheets.filter((s) => s.state !== 'hidden' && s.state !== 'veryHidden').map((s) => `<section class="sheet">${sheetTable(s, width)}</section>`));
  const css = [
    `@page{size:${r2(page.width)}mm ${r2(page.height)}mm;margin:${m.top}mm ${m.right}mm ${m.bottom}mm ${m.left}mm}`,
    `html,body{margin:0;padding:0}body{font-family:${PRINT_FONT_STACK};font-size:11pt;color:#000;-webkit-print-color-adjust:exact;print-color-adjust:exact}`,
    '.sheet{break-after:page}.sheet:last-child{break-after:auto}',
    'table.xl{border-collapse:collapse;table-layout:fixed}table.xl td{padding:0 0.6mm;overflow:hidden;word-break:break-all;line-height:1.2}',
    'table.xl tr{break-inside:avoid}table.xl thead{display:table-header-group}',
  ].join('\n');
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>${esc(title)}</title><style>${css}</style></head><body>${sections.join('')}</body></html>`;
}
