import type { PrintElement, PrintElementType } from '@tritium/shared/print/index';

// A new element as the designer drops it: a size that reads well on A4, and the first field it can show.

export type Fields = { code: string; label: string; kind: 'field' | 'system' | 'subTable'; columns?: { code: string; label: string }[] }[];

const SIZES: Record<PrintElementType, [number, number]> = {
  field: [80, 8], label: [50, 8], subTable: [180, 12], image: [30, 20], line: [100, 1], box: [60, 30],
  qrCode: [25, 25], barcode: [60, 15], approvalTrace: [180, 12], pageNumber: [40, 6],
};

let counter = 0;
const newIdOf = (type: string, taken: readonly PrintElement[]) => {
  let id: string;
  do id = `${type}${++counter}`;
  while (taken.some((e) => e.id === id));
  return id;
};

export function newElement(type: PrintElementType, at: { x: number; y: number }, fields: Fields, taken: readonly PrintElement[], text: string): PrintElement {
  const [width, height] = SIZES[type];
  const base = { id: newIdOf(type, taken), x: Math.max(0, at.x), y: Math.max(0, at.y), width, height };
  const field = fields.find((f) => f.kind !== 'subTable')?.code ?? 'Name';
  const grid = fields.find((f) => f.kind === 'subTable')?.code ?? '';
  switch (type) {
    case 'field': return { ...base, type, field, showLabel: true, fontSize: 10, bold: false, align: 'left' };
    case 'label': return { ...base, type, text, fontSize: 10, bold: false, align: 'left' };
    case 'subTable': return { ...base, type, field: grid, columns: [], fontSize: 9 };
    case 'image': return { ...base, type, src: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mP8/x8AAwMCAO+ip1sAAAAASUVORK5CYII=' };
    case 'line': return { ...base, type, direction: 'horizontal', thickness: 0.3 };
    case 'box': return { ...base, type, thickness: 0.3 };
    case 'qrCode': return { ...base, type, source: { kind: 'link' } };
    case 'barcode': return { ...base, type, source: { kind: 'field', field: fields.find((f) => f.code === 'SeqNo')?.code ?? field }, showText: true };
    case 'approvalTrace': return { ...base, type, showSignature: true, fontSize: 9 };
    case 'pageNumber': return { ...base, type, format: '第 {page} 页 / 共 {pages} 页', fontSize: 8 };
  }
}
