/** Print templates: the model, the assembled data and the one renderer (issue 24; docs/decisions/0050). */
export * from './template.ts';
export * from './data.ts';
export * from './render.ts';
export { BARCODE_REFUSED, elementHtml, isFlowing, kindOf, newPrintElement, PRINT_ELEMENT_KINDS, type PrintElementKind, type PrintFieldChoice } from './elements.ts';
export * from './default-layout.ts';
export * from './code128.ts';
export { qrSvg } from './qr.ts';
