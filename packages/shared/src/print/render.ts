import { code128Bars, code128Text } from './code128.ts';
import type { PrintDocument, PrintSheet } from './data.ts';
import { qrSvg } from './qr.ts';
import { contentSize, FLOWING_ELEMENTS, paperSize, type PrintElement, type PrintLayout } from './template.ts';

// The one renderer (issue 24; docs/decisions/0050): (layout, assembled records) → an HTML document. The browser's Print
// mode shows it in a frame and hands it to the print dialog; the server's print jobs give it to Chromium's page.pdf.
//
// Paging is the browser's: each record starts on a new page; between the flowing elements (sub-tables, the approval
// trace) the design is cut into bands of absolutely placed elements, so what lies below a grid moves down with its
// rows; a grid's <thead> repeats on every page it spans; page numbers sit in the @page margin boxes.

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const n = (v: number) => Number(v.toFixed(2));
const EMPTY = '--';

export const PRINT_FONT_STACK = "'WenQuanYi Micro Hei', 'PingFang SC', 'Microsoft YaHei', 'Noto Sans CJK SC', sans-serif";

function css(layout: PrintLayout): string {
  const { page } = layout;
  const paper = paperSize(page);
  const m = page.margins;
  const numbers = layout.elements.filter((e): e is Extract<PrintElement, { type: 'pageNumber' }> => e.type === 'pageNumber');
  const content = contentSize(page);
  const boxes = numbers.map((e) => {
    const vertical = e.y + e.height / 2 < content.height / 2 ? 'top' : 'bottom';
    const centre = e.x + e.width / 2;
    const horizontal = centre < content.width / 3 ? 'left' : centre > (content.width * 2) / 3 ? 'right' : 'center';
    return `@${vertical}-${horizontal}{content:${pageNumberContent(e.format)};font-size:${e.fontSize}pt;font-family:${PRINT_FONT_STACK}}`;
  });
  return [
    `@page{size:${n(paper.width)}mm ${n(paper.height)}mm;margin:${n(m.top)}mm ${n(m.right)}mm ${n(m.bottom)}mm ${n(m.left)}mm;${boxes.join('')}}`,
    `html,body{margin:0;padding:0}body{font-family:${PRINT_FONT_STACK};color:#000;-webkit-print-color-adjust:exact;print-color-adjust:exact}`,
    `.doc{width:${n(content.width)}mm;break-after:page}.doc:last-child{break-after:auto}`,
    '.band{position:relative;width:100%;break-inside:avoid}',
    '.el{position:absolute;box-sizing:border-box;overflow:hidden;white-space:pre-wrap;word-break:break-all;line-height:1.35}',
    '.flow{box-sizing:border-box}',
    'table.grid{border-collapse:collapse;table-layout:fixed;width:100%}',
    'table.grid th,table.grid td{border:0.25mm solid #000;padding:0.8mm 1.2mm;text-align:left;vertical-align:top;word-break:break-all;white-space:pre-wrap}',
    'table.grid th{background:#f2f2f2;font-weight:bold}table.grid thead{display:table-header-group}table.grid tr{break-inside:avoid}',
    'table.grid img.sign{max-height:12mm;max-width:100%}',
        `@media screen{body{background:#e9ecef;padding:12px 0}.doc{background:#fff;margin:0 auto 12px;padding:${n(m.top)}mm ${n(m.right)}mm ${n(m.bottom)}mm ${n(m.left)}mm;box-shadow:0 1px 4px rgba(0,0,0,.2);min-height:${n(content.height)}mm}}`,
  ].join('\n');
}

/** `第 {page} 页 / 共 {pages} 页` → a CSS content value with the page counters. */
function pageNumberContent(format: string): string {
  const parts = format.split(/(\{pages\}|\{page\})/).filter(Boolean);
  return parts.map((p) => (p === '{page}' ? 'counter(page)' : p === '{pages}' ? 'counter(pages)' : JSON.stringify(p))).join(' ');
}

const textStyle = (e: { fontSize: number; bold: boolean; align: string }) => `font-size:${e.fontSize}pt;${e.bold ? 'font-weight:bold;' : ''}text-align:${e.align};`;

function placed(e: PrintElement, top: number, inner: string, extra = ''): string {
  return `<div class="el" data-print-element="${e.type}" data-element-id="${esc(e.id)}" style="left:${n(e.x)}mm;top:${n(top)}mm;width:${n(e.width)}mm;height:${n(e.height)}mm;${extra}">${inner}</div>`;
}

function barcodeSvg(text: string, showText: boolean): string {
  const shown = code128Text(text);
  const { bars, modules } = code128Bars(shown);
  const quiet = 10;
  const width = modules + quiet * 2;
  const rects = bars.map(([x, w]) => `<rect x="${x + quiet}" y="0" width="${w}" height="100"/>`).join('');
  const label = showText ? `<div style="text-align:center;font-size:8pt;font-family:monospace">${esc(shown)}</div>` : '';
  return `<div style="display:flex;flex-direction:column;height:100%"><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} 100" preserveAspectRatio="none" shape-rendering="crispEdges" style="flex:1;width:100%;min-height:0"><rect width="${width}" height="100" fill="#fff"/><g fill="#000">${rects}</g></svg>${label}</div>`;
}

function staticElement(e: PrintElement, top: number, sheet: PrintSheet, doc: PrintDocument): string {
  switch (e.type) {
    case 'field': {
      const value = doc.values[e.field];
      const label = e.showLabel ? `<span class="label">${esc(e.label ?? sheet.labels[e.field] ?? e.field)}：</span>` : '';
      return placed(e, top, `${label}<span class="value" data-field="${esc(e.field)}">${esc(value || EMPTY)}</span>`, textStyle(e));
    }
    case 'label':
      return placed(e, top, esc(e.text), textStyle(e));
    case 'image':
      return placed(e, top, `<img src="${esc(e.src)}" alt="" style="width:100%;height:100%;object-fit:contain"/>`);
    case 'line':
      return e.direction === 'horizontal'
        ? placed(e, top, '', `height:0;border-top:${n(e.thickness)}mm solid #000;`)
        : placed(e, top, '', `width:0;border-left:${n(e.thickness)}mm solid #000;`);
    case 'box':
      return placed(e, top, '', `border:${n(e.thickness)}mm solid #000;`);
    case 'qrCode':
      return placed(e, top, qrSvg(doc.codes[e.id] ?? ''));
    case 'barcode':
      return placed(e, top, barcodeSvg(doc.codes[e.id] ?? '', e.showText));
    default:
      return '';
  }
}

function subTable(e: Extract<PrintElement, { type: 'subTable' }>, sheet: PrintSheet, doc: PrintDocument): string {
  const codes = e.columns.length ? e.columns.map((c) => c.field) : (sheet.gridColumns[e.field] ?? []);
  const columns = codes.map((code) => ({ code, label: e.columns.find((c) => c.field === code)?.label ?? sheet.labels[`${e.field}.${code}`] ?? code, width: e.columns.find((c) => c.field === code)?.width }));
  const rows = doc.grids[e.field]?.rows ?? [];
  const colgroup = `<colgroup>${columns.map((c) => `<col${c.width ? ` style="width:${n(c.width)}mm"` : ''}/>`).join('')}</colgroup>`;
  const head = `<thead><tr>${columns.map((c) => `<th>${esc(c.label)}</th>`).join('')}</tr></thead>`;
  const body = rows.map((r) => `<tr>${columns.map((c) => `<td>${esc(r[c.code] ?? '')}</td>`).join('')}</tr>`).join('');
  return `<table class="grid" data-grid="${esc(e.field)}" style="font-size:${e.fontSize}pt">${colgroup}${head}<tbody>${body}</tbody></table>`;
}

const TRACE_HEADERS = ['节点', '处理人', '操作', '意见', '时间'];

function approvalTrace(e: Extract<PrintElement, { type: 'approvalTrace' }>, doc: PrintDocument): string {
  const headers = [...TRACE_HEADERS, ...(e.showSignature ? ['签名'] : [])];
  const rows = doc.trace.map((t) => {
    const cells = [t.activity, t.user, t.action, t.opinion, t.time].map((v) => `<td>${esc(v)}</td>`).join('');
    const sign = e.showSignature ? `<td>${t.signature ? `<img class="sign" src="${esc(t.signature)}" alt=""/>` : ''}</td>` : '';
    return `<tr>${cells}${sign}</tr>`;
  });
  return `<table class="grid" data-trace="1" style="font-size:${e.fontSize}pt"><thead><tr>${headers.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** One record: bands of placed elements between the flowing ones, top to bottom. */
function renderDocument(layout: PrintLayout, sheet: PrintSheet, doc: PrintDocument): string {
  const flowing = layout.elements.filter((e) => FLOWING_ELEMENTS.has(e.type)).sort((a, b) => a.y - b.y);
  // Page numbers live in the page's margin boxes (css), outside the flow.
  const fixed = layout.elements.filter((e) => !FLOWING_ELEMENTS.has(e.type) && e.type !== 'pageNumber');
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
    out.push(`<div class="band" style="height:${n(bottom - from)}mm">${inside.map((e) => staticElement(e, top(e), sheet, doc)).join('')}</div>`);
  };
  for (const f of flowing) {
    if (f.y >= start) band(start, f.y);
    const inner = f.type === 'subTable' ? subTable(f, sheet, doc) : f.type === 'approvalTrace' ? approvalTrace(f, doc) : '';
    out.push(`<div class="flow" data-print-element="${f.type}" data-element-id="${esc(f.id)}" style="margin-left:${n(f.x)}mm;width:${n(f.width)}mm">${inner}</div>`);
    start = Math.max(start, f.y + f.height);
  }
  band(start, null);
  return `<section class="doc" data-object-id="${esc(doc.objectId)}">${out.join('')}</section>`;
}

/** The whole print: every record of the sheet, each from a new page. */
export function renderPrintHtml(layout: PrintLayout, sheet: PrintSheet): string {
  const body = sheet.documents.map((d) => renderDocument(layout, sheet, d)).join('');
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>${esc(sheet.title)}</title><style>${css(layout)}</style></head><body>${body}</body></html>`;
}
