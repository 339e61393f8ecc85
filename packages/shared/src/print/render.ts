import type { PrintSheet, PrintDocument } from './data.ts';
import { elementHtml, esc, isFlowing, mm as n } from './elements.ts';
import { contentSize, paperSize, type PrintElement, type PrintLayout } from './template.ts';

// The one renderer (issue 24; docs/decisions/0050): (layout, assembled records) → an HTML document. The browser's Print
// mode shows it in a frame and hands it to the print dialog; the server's print jobs give it to Chromium's page.pdf.
//
// Paging is the browser's: each record starts on a new page; between the flowing elements (sub-tables, the approval
// trace, growing fields) the design is cut into bands of absolutely placed elements, so what lies below a flowing one
// moves down with it; flowing elements that start at the same height share a row; a grid's <thead> repeats on every
// page it spans; page numbers sit in the @page margin boxes. Each element kind's HTML is its registry entry's
// (elements.ts).

export const PRINT_FONT_STACK = "'WenQuanYi Micro Hei', 'PingFang SC', 'Microsoft YaHei', 'Noto Sans CJK SC', sans-serif";

/**
 * Page numbers per record (docs/decisions/0067): each record's pages are a named page `r<i>` counting its own counter
 * `c<i>`, and `{pages}` is that record's page count, known from a first layout (`recordPages`). Without the counts
 * (the first layout) no numbers are drawn and each record's first page carries a link mark the PDF is read back by.
 */
export interface RecordNumbering {
  recordPages?: readonly number[];
}

/** The link a record's first page carries in the first layout. */
export const RECORD_MARK = 'https://record.invalid/';

function css(layout: PrintLayout, records: number, numbering?: RecordNumbering): string {
  const { page } = layout;
  const paper = paperSize(page);
  const m = page.margins;
  const numbers = layout.elements.filter((e): e is Extract<PrintElement, { type: 'pageNumber' }> => e.type === 'pageNumber');
  const content = contentSize(page);
  const boxes = (page: string, pages: string) => numbers.map((e) => {
    const vertical = e.y + e.height / 2 < content.height / 2 ? 'top' : 'bottom';
    const centre = e.x + e.width / 2;
    const horizontal = centre < content.width / 3 ? 'left' : centre > (content.width * 2) / 3 ? 'right' : 'center';
    return `@${vertical}-${horizontal}{content:${pageNumberContent(e.format, page, pages)};font-size:${e.fontSize}pt;font-family:${PRINT_FONT_STACK}}`;
  }).join('');
  const counts = numbering?.recordPages;
  const perRecord = numbering ? Array.from({ length: records }, (_, i) => `@page r${i}{counter-increment:c${i};${counts ? boxes(`counter(c${i})`, JSON.stringify(String(counts[i] ?? ''))) : ''}}`).join('') : '';
  return [
    `@page{size:${n(paper.width)}mm ${n(paper.height)}mm;margin:${n(m.top)}mm ${n(m.right)}mm ${n(m.bottom)}mm ${n(m.left)}mm;${numbering ? '' : boxes('counter(page)', 'counter(pages)')}}${perRecord}`,
    `.mark{position:absolute;display:block;width:1mm;height:1mm;font-size:1pt;color:transparent;text-decoration:none}`,
    `html,body{margin:0;padding:0}body{font-family:${PRINT_FONT_STACK};color:#000;-webkit-print-color-adjust:exact;print-color-adjust:exact}`,
    `.doc{width:${n(content.width)}mm;break-after:page}.doc:last-child{break-after:auto}`,
    '.band{position:relative;width:100%;break-inside:avoid}',
    '.el{position:absolute;box-sizing:border-box;overflow:hidden;white-space:pre-wrap;word-break:break-all;line-height:1.35}',
    '.flow{box-sizing:border-box}.flow[data-print-element=field]{white-space:pre-wrap;word-break:break-all;line-height:1.35;break-inside:avoid;padding:0.6mm 0}.flow-row{display:flex;align-items:stretch}.flow-row>.flow{flex:none}',
    'table.grid{border-collapse:collapse;table-layout:fixed;width:100%}',
    'table.grid th,table.grid td{border:0.25mm solid #000;padding:0.8mm 1.2mm;text-align:left;vertical-align:top;word-break:break-all;white-space:pre-wrap}',
    'table.grid th{background:#f2f2f2;font-weight:bold}table.grid thead{display:table-header-group}table.grid tr{break-inside:avoid}',
    'table.grid img.sign{max-height:12mm;max-width:100%}',
        `@media screen{body{background:#e9ecef;padding:12px 0}.doc{background:#fff;margin:0 auto 12px;padding:${n(m.top)}mm ${n(m.right)}mm ${n(m.bottom)}mm ${n(m.left)}mm;box-shadow:0 1px 4px rgba(0,0,0,.2);min-height:${n(content.height)}mm}}`,
  ].join('\n');
}

/** `第 {page} 页 / 共 {pages} 页` → a CSS content value with the page counters (or a record's own counter and count). */
function pageNumberContent(format: string, page: string, pages: string): string {
  const parts = format.split(/(\{pages\}|\{page\})/).filter(Boolean);
  return parts.map((p) => (p === '{page}' ? page : p === '{pages}' ? pages : JSON.stringify(p))).join(' ');
}

function placed(e: PrintElement, top: number, sheet: PrintSheet, doc: PrintDocument): string {
  const { inner, style = '' } = elementHtml(e, { sheet, doc });
  return `<div class="el" data-print-element="${e.type}" data-element-id="${esc(e.id)}" style="left:${n(e.x)}mm;top:${n(top)}mm;width:${n(e.width)}mm;height:${n(e.height)}mm;${style}">${inner}</div>`;
}

/** Flowing elements starting at the same height, side by side; each at least its designed height. */
function flowRow(row: PrintElement[], sheet: PrintSheet, doc: PrintDocument): string {
  let right = 0;
  const cells = row.map((f) => {
    const { inner, style = '' } = elementHtml(f, { sheet, doc });
    const gap = Math.max(0, f.x - right);
    right = Math.max(right, f.x) + f.width;
    const least = f.type === 'field' ? `min-height:${n(f.height)}mm;` : '';
    return `<div class="flow" data-print-element="${f.type}" data-element-id="${esc(f.id)}" style="margin-left:${n(gap)}mm;width:${n(f.width)}mm;${least}${style}">${inner}</div>`;
  });
  return row.length === 1 ? cells[0]! : `<div class="flow-row">${cells.join('')}</div>`;
}

/** One record: bands of placed elements between the flowing ones, top to bottom. */
function renderDocument(layout: PrintLayout, sheet: PrintSheet, doc: PrintDocument, index: number, numbering?: RecordNumbering): string {
  const flowing = layout.elements.filter(isFlowing).sort((a, b) => a.y - b.y || a.x - b.x);
  // Page numbers live in the page's margin boxes (css), outside the flow.
  const fixed = layout.elements.filter((e) => !isFlowing(e) && e.type !== 'pageNumber');
  const rows: PrintElement[][] = [];
  for (const f of flowing) {
    const last = rows.at(-1);
    if (last && last[0]!.y === f.y) last.push(f);
    else rows.push([f]);
  }
  const out: string[] = [];
  const placedIds = new Set<string>();
  let start = 0;
  // An element belongs to the first band it starts in; one that starts beside a grid moves below it.
  const band = (from: number, to: number | null) => {
    const inside = fixed.filter((e) => !placedIds.has(e.id) && (to === null || e.y < to));
    inside.forEach((e) => placedIds.add(e.id));
    const top = (e: PrintElement) => Math.max(0, e.y - from);
    const bottom = to ?? Math.max(0, ...inside.map((e) => top(e) + e.height)) + from;
    if (!inside.length && bottom - from <= 0) return;
    out.push(`<div class="band" style="height:${n(bottom - from)}mm">${inside.map((e) => placed(e, top(e), sheet, doc)).join('')}</div>`);
  };
  for (const row of rows) {
    const y = row[0]!.y;
    if (y >= start) band(start, y);
    out.push(flowRow(row, sheet, doc));
    start = Math.max(start, ...row.map((f) => f.y + f.height));
  }
  band(start, null);
  const named = numbering ? ` style="page:r${index}"` : '';
  const mark = numbering && !numbering.recordPages ? `<a class="mark" href="${RECORD_MARK}${index}">.</a>` : '';
  return `<section class="doc" data-object-id="${esc(doc.objectId)}"${named}>${mark}${out.join('')}</section>`;
}

/** The whole print: every record of the sheet, each from a new page; `numbering` numbers each record's pages of its own. */
export function renderPrintHtml(layout: PrintLayout, sheet: PrintSheet, numbering?: RecordNumbering): string {
  const body = sheet.documents.map((d, i) => renderDocument(layout, sheet, d, i, numbering)).join('');
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>${esc(sheet.title)}</title><style>${css(layout, sheet.documents.length, numbering)}</style></head><body>${body}</body></html>`;
}

/** Whether a print of `sheet` numbers each record's pages of its own (page numbers on the layout, more than one record). */
export const numbersPerRecord = (layout: PrintLayout, sheet: PrintSheet): boolean => sheet.documents.length > 1 && layout.elements.some((e) => e.type === 'pageNumber');
