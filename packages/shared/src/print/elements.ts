import { code128Bars, code128Encodable } from './code128.ts';
import type { PrintDocument, PrintSheet } from './data.ts';
import { qrSvg } from './qr.ts';
import { PAGE_NUMBER_FORMAT, type PrintElement, type PrintElementType } from './template.ts';

// The print element registry (issue 24; docs/decisions/0068): one entry per element kind — the size the designer drops
// it with, whether it flows (grows with its content and pushes what is below it down), the element a designer creates,
// and its HTML in the one renderer. The designer's preview is the web's own map keyed by the same kinds.

export const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
export const mm = (v: number) => Number(v.toFixed(2));
const EMPTY = '--';
/** Shown in place of a barcode whose content Code128 cannot carry. */
export const BARCODE_REFUSED = '条码只能包含英文字母、数字和符号';

/** A field a template can show, as the print header lists it. */
export interface PrintFieldChoice {
  code: string;
  label: string;
  kind: 'field' | 'system' | 'subTable';
  columns?: { code: string; label: string }[];
}

export interface RenderContext {
  sheet: PrintSheet;
  doc: PrintDocument;
}

type Of<K extends PrintElementType> = Extract<PrintElement, { type: K }>;
type Box = { id: string; x: number; y: number; width: number; height: number };

export interface PrintElementKind<K extends PrintElementType> {
  /** Width × height (mm) a new element has. */
  size: readonly [number, number];
  /** Grows with its content: placed in the flow, so what lies below moves down with it. */
  flowing: (e: Of<K>) => boolean;
  create(box: Box, fields: readonly PrintFieldChoice[], text: string): Of<K>;
  /** Its content; `style` is added to its box (absolutely placed, or a block in the flow). */
  html(e: Of<K>, ctx: RenderContext): { inner: string; style?: string };
}

const textStyle = (e: { fontSize: number; bold: boolean; align: string }) => `font-size:${e.fontSize}pt;${e.bold ? 'font-weight:bold;' : ''}text-align:${e.align};`;
const never = () => false;
const firstField = (fields: readonly PrintFieldChoice[]) => fields.find((f) => f.kind !== 'subTable')?.code ?? 'Name';

function barcodeSvg(text: string, showText: boolean): string {
  if (!code128Encodable(text)) return `<div class="refused" data-refused="barcode" style="height:100%;border:0.25mm dashed #000;font-size:8pt;padding:1mm">${BARCODE_REFUSED}</div>`;
  const { bars, modules } = code128Bars(text);
  const quiet = 10;
  const width = modules + quiet * 2;
  const rects = bars.map(([x, w]) => `<rect x="${x + quiet}" y="0" width="${w}" height="100"/>`).join('');
  const label = showText ? `<div style="text-align:center;font-size:8pt;font-family:monospace">${esc(text)}</div>` : '';
  return `<div style="display:flex;flex-direction:column;height:100%"><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} 100" preserveAspectRatio="none" shape-rendering="crispEdges" style="flex:1;width:100%;min-height:0"><rect width="${width}" height="100" fill="#fff"/><g fill="#000">${rects}</g></svg>${label}</div>`;
}

function subTable(e: Of<'subTable'>, { sheet, doc }: RenderContext): string {
  const codes = e.columns.length ? e.columns.map((c) => c.field) : (sheet.gridColumns[e.field] ?? []);
  const columns = codes.map((code) => ({ code, label: e.columns.find((c) => c.field === code)?.label ?? sheet.labels[`${e.field}.${code}`] ?? code, width: e.columns.find((c) => c.field === code)?.width }));
  const rows = doc.grids[e.field]?.rows ?? [];
  const colgroup = `<colgroup>${columns.map((c) => `<col${c.width ? ` style="width:${mm(c.width)}mm"` : ''}/>`).join('')}</colgroup>`;
  const head = `<thead><tr>${columns.map((c) => `<th>${esc(c.label)}</th>`).join('')}</tr></thead>`;
  const body = rows.map((r) => `<tr>${columns.map((c) => `<td>${esc(r[c.code] ?? '')}</td>`).join('')}</tr>`).join('');
  return `<table class="grid" data-grid="${esc(e.field)}" style="font-size:${e.fontSize}pt">${colgroup}${head}<tbody>${body}</tbody></table>`;
}

const TRACE_HEADERS = ['节点', '处理人', '操作', '意见', '时间'];

function approvalTrace(e: Of<'approvalTrace'>, { doc }: RenderContext): string {
  const headers = [...TRACE_HEADERS, ...(e.showSignature ? ['签名'] : [])];
  const rows = doc.trace.map((t) => {
    const cells = [t.activity, t.user, t.action, t.opinion, t.time].map((v) => `<td>${esc(v)}</td>`).join('');
    const sign = e.showSignature ? `<td>${t.signature ? `<img class="sign" src="${esc(t.signature)}" alt=""/>` : ''}</td>` : '';
    return `<tr>${cells}${sign}</tr>`;
  });
  return `<table class="grid" data-trace="1" style="font-size:${e.fontSize}pt"><thead><tr>${headers.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function field(e: Of<'field'>, { sheet, doc }: RenderContext): string {
  const label = e.showLabel ? `<span class="label">${esc(e.label ?? sheet.labels[e.field] ?? e.field)}：</span>` : '';
  const image = doc.images[e.field];
  const value = image
    ? `<img class="value-image" data-field="${esc(e.field)}" src="${esc(image)}" alt="" style="max-height:${mm(Math.max(4, e.height - 1))}mm;max-width:100%;vertical-align:top"/>`
    : `<span class="value" data-field="${esc(e.field)}">${esc(doc.values[e.field] || EMPTY)}</span>`;
  return `${label}${value}`;
}

export const PRINT_ELEMENT_KINDS: { readonly [K in PrintElementType]: PrintElementKind<K> } = {
  field: {
    size: [80, 8],
    // A growing field sits in the flow with its height as the least it takes (docs/decisions/0068).
    flowing: (e) => e.grow,
    create: (box, fields) => ({ ...box, type: 'field', field: firstField(fields), showLabel: true, grow: false, fontSize: 10, bold: false, align: 'left' }),
    html: (e, ctx) => ({ inner: field(e, ctx), style: textStyle(e) }),
  },
  label: {
    size: [50, 8],
    flowing: never,
    create: (box, _fields, text) => ({ ...box, type: 'label', text, fontSize: 10, bold: false, align: 'left' }),
    html: (e) => ({ inner: esc(e.text), style: textStyle(e) }),
  },
  subTable: {
    size: [180, 12],
    flowing: () => true,
    create: (box, fields) => ({ ...box, type: 'subTable', field: fields.find((f) => f.kind === 'subTable')?.code ?? '', columns: [], fontSize: 9 }),
    html: (e, ctx) => ({ inner: subTable(e, ctx) }),
  },
  image: {
    size: [30, 20],
    flowing: never,
    create: (box) => ({ ...box, type: 'image', src: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mP8/x8AAwMCAO+ip1sAAAAASUVORK5CYII=' }),
    html: (e) => ({ inner: `<img src="${esc(e.src)}" alt="" style="width:100%;height:100%;object-fit:contain"/>` }),
  },
  line: {
    size: [100, 1],
    flowing: never,
    create: (box) => ({ ...box, type: 'line', direction: 'horizontal', thickness: 0.3 }),
    html: (e) => ({ inner: '', style: e.direction === 'horizontal' ? `height:0;border-top:${mm(e.thickness)}mm solid #000;` : `width:0;border-left:${mm(e.thickness)}mm solid #000;` }),
  },
  box: {
    size: [60, 30],
    flowing: never,
    create: (box) => ({ ...box, type: 'box', thickness: 0.3 }),
    html: (e) => ({ inner: '', style: `border:${mm(e.thickness)}mm solid #000;` }),
  },
  qrCode: {
    size: [25, 25],
    flowing: never,
    create: (box) => ({ ...box, type: 'qrCode', source: { kind: 'link' } }),
    html: (e, { doc }) => ({ inner: qrSvg(doc.codes[e.id] ?? '') }),
  },
  barcode: {
    size: [60, 15],
    flowing: never,
    create: (box, fields) => ({ ...box, type: 'barcode', source: { kind: 'field', field: fields.find((f) => f.code === 'SeqNo')?.code ?? firstField(fields) }, showText: true }),
    html: (e, { doc }) => ({ inner: barcodeSvg(doc.codes[e.id] ?? '', e.showText) }),
  },
  approvalTrace: {
    size: [180, 12],
    flowing: () => true,
    create: (box) => ({ ...box, type: 'approvalTrace', showSignature: true, fontSize: 9 }),
    html: (e, ctx) => ({ inner: approvalTrace(e, ctx) }),
  },
  // Page numbers live in the page's margin boxes (the renderer's @page rules), outside the flow.
  pageNumber: {
    size: [40, 6],
    flowing: never,
    create: (box) => ({ ...box, type: 'pageNumber', format: PAGE_NUMBER_FORMAT, fontSize: 8 }),
    html: () => ({ inner: '' }),
  },
};

/** The registry's entry for an element's kind. */
export function kindOf<K extends PrintElementType>(type: K): PrintElementKind<K> {
  return PRINT_ELEMENT_KINDS[type] as PrintElementKind<K>;
}

/** Whether an element flows (sub-tables, the trace, growing fields). */
export const isFlowing = (e: PrintElement): boolean => kindOf(e.type).flowing(e as never);

/** An element's HTML content and box style. */
export const elementHtml = (e: PrintElement, ctx: RenderContext) => kindOf(e.type).html(e as never, ctx);

/** A new element of `type` at `at` (mm), as the designer drops it. */
export function newPrintElement(type: PrintElementType, id: string, at: { x: number; y: number }, fields: readonly PrintFieldChoice[], text: string): PrintElement {
  const [width, height] = kindOf(type).size;
  return kindOf(type).create({ id, x: Math.max(0, at.x), y: Math.max(0, at.y), width, height }, fields, text);
}
