import { z } from 'zod';
import { PRINT_LIMITS } from '../constants/limits.ts';

// Print templates (issue 24; docs/decisions/0050): a page of a chosen size with elements placed on it in millimetres,
// relative to the top-left corner of the printable area (inside the margins). Sub-table grids and the approval trace
// grow with their rows: whatever sits below them on the design moves down with them, and a page break repeats the
// grid's header. The model is plain JSON, validated here, stored per form and read by the designer, the browser's
// Print mode and the server's PDF jobs alike.

export const PAGE_SIZES = ['A4', 'A5', 'custom'] as const;
export const PAGE_ORIENTATIONS = ['portrait', 'landscape'] as const;
/** Paper sizes in millimetres, portrait. */
export const PAGE_SIZE_MM: Record<Exclude<(typeof PAGE_SIZES)[number], 'custom'>, { width: number; height: number }> = {
  A4: { width: 210, height: 297 },
  A5: { width: 148, height: 210 },
};
/** The custom size's bounds (mm): from a receipt strip to A2. */
export const CUSTOM_PAGE_MM = { min: 40, max: 600 } as const;
export const PRINT_TEMPLATE_MAX_ELEMENTS = 300;
/** A page number's text: {page} is this page, {pages} all pages of the file. */
export const PAGE_NUMBER_FORMAT = '第 {page} 页 / 共 {pages} 页';
export const PRINT_TEXT_MAX = 2000;
/** An image placed on a template travels inside it (data URL) or as a file link; its size is bounded. */
export const PRINT_IMAGE_MAX_CHARS = 700_000;

const mm = (max = 600) => z.number().min(0).max(max);
const fontSize = z.number().min(6).max(72).default(10);
const align = z.enum(['left', 'center', 'right']).default('left');
const FieldCode = z.string().trim().min(1, '请选择字段').max(130);

export const PageSetup = z.strictObject({
  size: z.enum(PAGE_SIZES).default('A4'),
  /** Only for custom: the paper's width and height in mm, portrait. */
  width: z.number().min(CUSTOM_PAGE_MM.min).max(CUSTOM_PAGE_MM.max).optional(),
  height: z.number().min(CUSTOM_PAGE_MM.min).max(CUSTOM_PAGE_MM.max).optional(),
  orientation: z.enum(PAGE_ORIENTATIONS).default('portrait'),
  margins: z
    .strictObject({ top: mm(100), right: mm(100), bottom: mm(100), left: mm(100) })
    .default({ top: 12, right: 12, bottom: 12, left: 12 }),
});
export type PageSetup = z.output<typeof PageSetup>;

const box = { id: z.string().trim().min(1).max(40), x: mm(), y: mm(), width: mm(), height: mm() };

/** What a QR code or a barcode carries: a field's text, the record's link, or a formula's result. */
export const CodeSource = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('field'), field: FieldCode }),
  z.strictObject({ kind: z.literal('link') }),
  z.strictObject({ kind: z.literal('formula'), formula: z.string().trim().min(1, '请填写公式').max(PRINT_TEXT_MAX) }),
]);
export type CodeSource = z.output<typeof CodeSource>;

export const SubTableColumn = z.strictObject({ field: FieldCode, label: z.string().max(100).optional(), width: mm().optional() });

export const PrintElement = z.discriminatedUnion('type', [
  z.strictObject({ ...box, type: z.literal('field'), field: FieldCode, showLabel: z.boolean().default(true), grow: z.boolean().default(false), label: z.string().max(100).optional(), fontSize, bold: z.boolean().default(false), align }),
  z.strictObject({ ...box, type: z.literal('label'), text: z.string().max(PRINT_TEXT_MAX), fontSize, bold: z.boolean().default(false), align }),
  z.strictObject({ ...box, type: z.literal('subTable'), field: FieldCode, columns: z.array(SubTableColumn).max(100).default([]), fontSize }),
  z.strictObject({ ...box, type: z.literal('image'), src: z.string().max(PRINT_IMAGE_MAX_CHARS).refine((s) => /^(data:image\/(png|jpeg|gif|svg\+xml);base64,|\/v1\/file\/)/.test(s), '图片须为上传的图片') }),
  z.strictObject({ ...box, type: z.literal('line'), direction: z.enum(['horizontal', 'vertical']).default('horizontal'), thickness: z.number().min(0.1).max(5).default(0.3) }),
  z.strictObject({ ...box, type: z.literal('box'), thickness: z.number().min(0.1).max(5).default(0.3) }),
  z.strictObject({ ...box, type: z.literal('qrCode'), source: CodeSource }),
  z.strictObject({ ...box, type: z.literal('barcode'), source: CodeSource, showText: z.boolean().default(true) }),
  z.strictObject({ ...box, type: z.literal('approvalTrace'), showSignature: z.boolean().default(true), fontSize }),
  z.strictObject({ ...box, type: z.literal('pageNumber'), format: z.string().trim().min(1).max(60).default(PAGE_NUMBER_FORMAT), fontSize }),
]);
export type PrintElement = z.output<typeof PrintElement>;
export type PrintElementInput = z.input<typeof PrintElement>;
export type PrintElementType = PrintElement['type'];
export const PRINT_ELEMENT_TYPES = ['field', 'label', 'subTable', 'image', 'line', 'box', 'qrCode', 'barcode', 'approvalTrace', 'pageNumber'] as const satisfies readonly PrintElementType[];

export const PrintLayout = z
  .strictObject({ page: PageSetup.default(PageSetup.parse({})), elements: z.array(PrintElement).max(PRINT_TEMPLATE_MAX_ELEMENTS) })
  .superRefine((layout, ctx) => {
    const ids = new Set<string>();
    layout.elements.forEach((e, i) => {
      if (ids.has(e.id)) ctx.addIssue({ code: 'custom', path: ['elements', i, 'id'], message: '元素 id 重复' });
      ids.add(e.id);
    });
    // domain.md §9: at most 50 QR codes per template.
    const qr = layout.elements.filter((e) => e.type === 'qrCode').length;
    if (qr > PRINT_LIMITS.maxQrCodes) ctx.addIssue({ code: 'custom', path: ['elements'], message: `每个模板最多${PRINT_LIMITS.maxQrCodes}个二维码` });
    if (layout.page.size === 'custom' && (!layout.page.width || !layout.page.height)) {
      ctx.addIssue({ code: 'custom', path: ['page', 'width'], message: '自定义纸张须填写宽和高' });
    }
    const { width, height } = contentSize(layout.page);
    if (width <= 10 || height <= 10) ctx.addIssue({ code: 'custom', path: ['page', 'margins'], message: '页边距过大，没有可打印的区域' });
  });
export type PrintLayout = z.output<typeof PrintLayout>;
export type PrintLayoutInput = z.input<typeof PrintLayout>;

/** The paper's size (mm) as it lies: landscape swaps width and height. */
export function paperSize(page: PageSetup): { width: number; height: number } {
  const base = page.size === 'custom' ? { width: page.width ?? 210, height: page.height ?? 297 } : PAGE_SIZE_MM[page.size];
  return page.orientation === 'landscape' ? { width: base.height, height: base.width } : base;
}

/** The printable area inside the margins (mm). */
export function contentSize(page: PageSetup): { width: number; height: number } {
  const paper = paperSize(page);
  return { width: paper.width - page.margins.left - page.margins.right, height: paper.height - page.margins.top - page.margins.bottom };
}

/** The fields an element reads (field, sub-table and code sources), for checks against the form. */
export function fieldsOfElement(element: PrintElement): string[] {
  if (element.type === 'field' || element.type === 'subTable') return [element.field];
  if ((element.type === 'qrCode' || element.type === 'barcode') && element.source.kind === 'field') return [element.source.field];
  return [];
}
