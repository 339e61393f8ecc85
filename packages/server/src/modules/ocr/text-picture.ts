import { sharpImages } from '../../lib/lazy-packages.ts';

// Pictures of known text (docs/decisions/0125), for the OCR tests, the accuracy bench and the browser scenario: lines
// drawn as SVG text in the CJK font the machine has (WenQuanYi Micro Hei) and rendered by sharp to PNG, so what the
// recognition should read is known exactly.

export interface PictureLine {
  text: string;
  x: number;
  y: number;
  size?: number;
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A white picture with the lines drawn in black (y is each line's baseline). */
export async function textPicture(width: number, height: number, lines: PictureLine[], options: { noise?: number } = {}): Promise<Buffer> {
  const texts = lines
    .map((l) => `<text x="${l.x}" y="${l.y}" font-size="${l.size ?? 28}" font-family="WenQuanYi Micro Hei, sans-serif" fill="#111">${escapeXml(l.text)}</text>`)
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#fff"/>${texts}</svg>`;
  const sharp = await sharpImages();
  const picture = sharp(Buffer.from(svg));
  return options.noise ? picture.blur(options.noise).png().toBuffer() : picture.png().toBuffer();
}

/** The invoice-like picture the tests and the browser scenario read: a VAT invoice's labels and values. */
export const INVOICE_VALUES = {
  invoiceCode: '044031900111',
  invoiceNumber: '12345678',
  issueDate: '2026年11月20日',
  buyerName: '深圳市星辰科技有限公司',
  taxId: '91440300MA5F8L2X3K',
  amount: '1000.00',
  tax: '130.00',
  total: '1130.00',
} as const;

export function invoicePicture(): Promise<Buffer> {
  const v = INVOICE_VALUES;
  return textPicture(900, 520, [
    { text: '增值税专用发票', x: 330, y: 60, size: 34 },
    { text: `发票代码：${v.invoiceCode}`, x: 40, y: 130 },
    { text: `发票号码：${v.invoiceNumber}`, x: 500, y: 130 },
    { text: `开票日期：${v.issueDate}`, x: 40, y: 190 },
    { text: `购买方名称：${v.buyerName}`, x: 40, y: 250 },
    { text: `纳税人识别号：${v.taxId}`, x: 40, y: 310 },
    { text: `金额：${v.amount}`, x: 40, y: 370 },
    { text: `税额：${v.tax}`, x: 500, y: 370 },
    { text: `价税合计（小写）：${v.total}`, x: 40, y: 440 },
  ]);
}
