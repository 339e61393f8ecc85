import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import jsQR from 'jsqr';

// PDFs as the print tests read them (issue 24): pages as grey bitmaps (poppler's pdftoppm), words with their boxes
// (pdftotext -bbox), the fonts embedded (pdffonts), a QR code decoded back (jsQR). poppler-utils comes from Debian.

export interface GreyPage {
  width: number;
  height: number;
  /** One byte a pixel, 0 black … 255 white. */
  data: Uint8Array;
  dpi: number;
}

function inTemp<T>(pdf: Buffer, work: (dir: string, file: string) => T): T {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tritium-pdf-'));
  try {
    const file = path.join(dir, 'in.pdf');
    writeFileSync(file, pdf);
    return work(dir, file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Page `page` (1-based) at `dpi`, grey. */
export function pageImage(pdf: Buffer, page: number, dpi = 100): GreyPage {
  return inTemp(pdf, (dir, file) => {
    execFileSync('pdftoppm', ['-gray', '-r', String(dpi), '-f', String(page), '-l', String(page), '-singlefile', file, path.join(dir, 'p')]);
    const bytes = readFileSync(path.join(dir, 'p.pgm'));
    // Binary PGM: "P5\n<w> <h>\n255\n" then the pixels.
    const header = bytes.subarray(0, 40).toString('latin1').match(/^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/)!;
    return { width: Number(header[1]), height: Number(header[2]), data: new Uint8Array(bytes.subarray(header[0].length)), dpi };
  });
}

/** The bitmap of a region given in millimetres from the page's top-left corner. */
export function crop(page: GreyPage, mm: { x: number; y: number; width: number; height: number }): GreyPage {
  const px = (v: number) => Math.round((v / 25.4) * page.dpi);
  const [x0, y0, w, h] = [px(mm.x), px(mm.y), px(mm.width), px(mm.height)];
  const data = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) data.set(page.data.subarray((y0 + y) * page.width + x0, (y0 + y) * page.width + x0 + w), y * w);
  return { width: w, height: h, data, dpi: page.dpi };
}

/** Share of dark pixels. */
export const ink = (page: GreyPage) => page.data.reduce((n, v) => n + (v < 128 ? 1 : 0), 0) / page.data.length;

/** Decodes the QR code on a page (or a crop of one). */
export function decodeQr(page: GreyPage): string | undefined {
  const rgba = new Uint8ClampedArray(page.width * page.height * 4);
  page.data.forEach((v, i) => rgba.set([v, v, v, 255], i * 4));
  return jsQR(rgba, page.width, page.height)?.data;
}

export interface Word {
  page: number;
  text: string;
  /** Millimetres from the page's top-left corner. */
  x: number;
  y: number;
}

/** Every word with its place. */
export function words(pdf: Buffer): Word[] {
  const html = inTemp(pdf, (_dir, file) => execFileSync('pdftotext', ['-bbox', file, '-'], { maxBuffer: 256 * 1024 * 1024 }).toString('utf8'));
  const out: Word[] = [];
  let page = 0;
  const toMm = (pt: string) => (Number(pt) / 72) * 25.4;
  for (const line of html.split('\n')) {
    if (line.includes('<page ')) page++;
    const m = line.match(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="[\d.]+" yMax="[\d.]+">([^<]*)<\/word>/);
    if (m) out.push({ page, text: m[3]!.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>'), x: toMm(m[1]!), y: toMm(m[2]!) });
  }
  return out;
}

/** The plain text of each page. */
export function pageTexts(pdf: Buffer): string[] {
  const text = inTemp(pdf, (_dir, file) => execFileSync('pdftotext', ['-layout', file, '-'], { maxBuffer: 256 * 1024 * 1024 }).toString('utf8'));
  return text.split('\f').slice(0, -1);
}

/** The names of the fonts the PDF embeds. */
export function fonts(pdf: Buffer): string[] {
  const out = inTemp(pdf, (_dir, file) => execFileSync('pdffonts', [file]).toString('utf8'));
  return out.split('\n').slice(2).filter(Boolean).map((l) => l.split(/\s+/)[0]!);
}
