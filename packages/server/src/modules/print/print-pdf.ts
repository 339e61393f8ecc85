import type { Browser } from 'playwright-core';
import { pdfLib, playwrightCore } from '../../lib/lazy-packages.ts';
import { CHROMIUM_ARGS } from '../../lib/chromium-args.ts';

// PDF from the renderer's HTML through headless Chromium's page.pdf (docs/decisions/0050): the browser that prints the
// Print mode also makes the file, so paging, repeated sub-table headers, page numbers and CJK text (the system's
// fonts: fonts-wqy-microhei) come out the same. One browser per process, started on first use and kept; each PDF
// gets its own context.

export interface PdfRenderer {
  /** The PDF of an HTML document, and its page count. `laidOut` runs once the pages are laid out, before the file is written. */
  render(html: string, laidOut?: () => Promise<void>): Promise<{ pdf: Buffer; pages: number }>;
  close(): Promise<void>;
}

/**
 * Pages (0-based) that carry a link to `prefix<i>`, by i: where each record starts in a first layout whose records
 * mark their first page (docs/decisions/0067). Read with pdf-lib: the links are the pages' URI annotations.
 */
export async function markedPages(pdf: Uint8Array, prefix: string): Promise<Map<number, number>> {
  const { PDFDocument, PDFName, PDFDict, PDFArray, PDFString, PDFHexString } = await pdfLib();
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const starts = new Map<number, number>();
  doc.getPages().forEach((page, index) => {
    const annots = page.node.lookupMaybe(PDFName.of('Annots'), PDFArray);
    for (let k = 0; k < (annots?.size() ?? 0); k++) {
      const action = annots!.lookupMaybe(k, PDFDict)?.lookupMaybe(PDFName.of('A'), PDFDict);
      const uri = action?.lookupMaybe(PDFName.of('URI'), PDFString, PDFHexString)?.decodeText();
      const mark = uri?.startsWith(prefix) ? Number(uri.slice(prefix.length)) : NaN;
      if (Number.isInteger(mark) && !starts.has(mark)) starts.set(mark, index);
    }
  });
  return starts;
}

/** Each record's page count from where the records start and the file's page count. */
export function pagesPerRecord(starts: Map<number, number>, records: number, total: number): number[] {
  return Array.from({ length: records }, (_, i) => {
    const from = starts.get(i);
    const next = Array.from({ length: records - i - 1 }, (_, k) => starts.get(i + 1 + k)).find((v) => v !== undefined) ?? total;
    return from === undefined ? 0 : next - from;
  });
}

export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium';

/** Pages of a PDF written by Chromium: its page objects. */
export function countPdfPages(pdf: Buffer): number {
  return pdf.toString('latin1').match(/\/Type\s*\/Page(?![a-z])/g)?.length ?? 0;
}

export function createPdfRenderer(executablePath = process.env.TRITIUM_CHROMIUM_PATH || DEFAULT_CHROMIUM_PATH): PdfRenderer {
  let browser: Promise<Browser> | undefined;
  const open = () => {
    browser ??= playwrightCore().then(({ chromium }) => chromium.launch({ executablePath, headless: true, args: [...CHROMIUM_ARGS] })).then((b) => {
      // A browser that died (killed, crashed) is started again on the next print.
      b.on('disconnected', () => (browser = undefined));
      return b;
    }, (error) => {
      browser = undefined;
      throw error;
    });
    return browser;
  };
  return {
    async render(html, laidOut) {
      const context = await (await open()).newContext();
      try {
        const page = await context.newPage();
        // Images are data URLs (file links are read into the document first); nothing is fetched.
        await page.setContent(html, { waitUntil: 'load', timeout: 120_000 });
        await laidOut?.();
        const pdf = await page.pdf({ preferCSSPageSize: true, printBackground: true });
        return { pdf, pages: countPdfPages(pdf) };
      } finally {
        await context.close().catch(() => undefined);
      }
    },
    async close() {
      const b = browser;
      browser = undefined;
      if (b) await (await b.catch(() => undefined))?.close().catch(() => undefined);
    },
  };
}
