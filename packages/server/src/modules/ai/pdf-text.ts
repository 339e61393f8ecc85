import { createRequire } from 'node:module';
import path from 'node:path';
import { AppError } from '../../lib/app-error.ts';

// The text layer of an uploaded PDF (docs/decisions/0126), read with pdfjs-dist (Mozilla's PDF.js, its Node build):
// no outside program, so it works wherever the server's node_modules are. Its character maps (the predefined CJK
// encodings such as UniGB-UCS2-H that Chinese invoices and contracts use) are read from the package's own folder.
// A PDF with no text layer (a scan) is refused in words; pages and bytes are bounded.

export const PDF_BOUNDS = {
  /** Largest PDF read, in MB. */
  maxMb: 10,
  /** Pages read at most; a longer PDF is refused. */
  maxPages: 20,
  /** Characters kept (the extraction's own text bound). */
  maxChars: 20_000,
} as const;

const PDF_DETAIL = { maxPages: PDF_BOUNDS.maxPages, limitMb: PDF_BOUNDS.maxMb };

/** Is this a PDF, by its first bytes? */
export const isPdf = (bytes: Buffer) => bytes.subarray(0, 5).toString('latin1') === '%PDF-';

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let loaded: Promise<PdfJs> | undefined;
/** Loaded on first use (about 20 MB of code only the PDFs need). */
const pdfjs = () => (loaded ??= import('pdfjs-dist/legacy/build/pdf.mjs').catch((error) => {
  loaded = undefined;
  throw error;
}));

const packageDir = () => path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));

/** The PDF's text, page by page (a blank line between pages); 480203 when it has none, 480204/480205 otherwise. */
export async function pdfText(bytes: Buffer): Promise<string> {
  if (bytes.length > PDF_BOUNDS.maxMb * 1024 * 1024) throw new AppError('AiPdfTooLarge', { detail: PDF_DETAIL });
  const { getDocument } = await pdfjs();
  const dir = packageDir();
  const task = getDocument({
    data: new Uint8Array(bytes),
    cMapUrl: `${path.join(dir, 'cmaps')}/`,
    cMapPacked: true,
    standardFontDataUrl: `${path.join(dir, 'standard_fonts')}/`,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
  });
  let document: Awaited<typeof task.promise>;
  try {
    document = await task.promise;
  } catch {
    await task.destroy().catch(() => undefined);
    throw new AppError('AiPdfUnreadable');
  }
  try {
    if (document.numPages > PDF_BOUNDS.maxPages) throw new AppError('AiPdfTooLarge', { detail: PDF_DETAIL });
    const pages: string[] = [];
    let total = 0;
    for (let n = 1; n <= document.numPages && total < PDF_BOUNDS.maxChars; n += 1) {
      const page = await document.getPage(n);
      const content = await page.getTextContent();
      const text = content.items
        .map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : ''))
        .join('')
        .replace(/\u0000/g, '')
        .replace(/[ \t]+\n/g, '\n')
        .trim();
      page.cleanup();
      pages.push(text);
      total += text.length;
    }
    const text = pages.filter(Boolean).join('\n\n').slice(0, PDF_BOUNDS.maxChars);
    if (!text.replace(/\s/g, '')) throw new AppError('AiPdfNoText');
    return text;
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError('AiPdfUnreadable');
  } finally {
    await document.destroy().catch(() => undefined);
  }
}
