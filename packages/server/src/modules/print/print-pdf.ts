import type { Browser } from 'playwright-core';
import { pdfLib, playwrightCore } from '../../lib/lazy-packages.ts';

// PDF from the renderer's HTML through headless Chromium's page.pdf (docs/decisions/0050): the browser that prints the
// Print mode also makes the file, so paging, repeated sub-table headers, page numbers and CJK text (the system's
// fonts: fonts-wqy-microhei) come out the same. One browser per process, started on first use and kept; each PDF
// gets its own context.

export interface PdfRenderer {
  /**
   * The PDF of an HTML document, and its page count. Several documents (one a record, each numbering its own pages)
   * are laid out one after the other in the same page and their PDFs joined into one file (docs/decisions/0067).
   * `laidOut` runs once the pages are laid out, before the file is written.
   */
  render(html: string | readonly string[], laidOut?: () => Promise<void>): Promise<{ pdf: Buffer; pages: number }>;
  close(): Promise<void>;
}

/** PDFs joined in order into one (pdf-lib copies the pages with their embedded fonts and images). */
export async function joinPdfs(parts: readonly Uint8Array[]): Promise<Buffer> {
  if (parts.length === 1) return Buffer.from(parts[0]!);
  const { PDFDocument } = await pdfLib();
  const out = await PDFDocument.create();
  for (const part of parts) {
    const doc = await PDFDocument.load(part);
    for (const page of await out.copyPages(doc, doc.getPageIndices())) out.addPage(page);
  }
  // Without object streams the page objects stay readable to simple tools (and to countPdfPages).
  return Buffer.from(await out.save({ useObjectStreams: false }));
}

export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];

/** Pages of a PDF written by Chromium: its page objects. */
export function countPdfPages(pdf: Buffer): number {
  return pdf.toString('latin1').match(/\/Type\s*\/Page(?![a-z])/g)?.length ?? 0;
}

export function createPdfRenderer(executablePath = process.env.TRITIUM_CHROMIUM_PATH || DEFAULT_CHROMIUM_PATH): PdfRenderer {
  let browser: Promise<Browser> | undefined;
  const open = () => {
    browser ??= playwrightCore().then(({ chromium }) => chromium.launch({ executablePath, args: ARGS })).then((b) => {
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
        const documents = typeof html === 'string' ? [html] : html;
        const parts: Buffer[] = [];
        for (const [i, one] of documents.entries()) {
          // Images are data URLs (file links are read into the document first); nothing is fetched.
          await page.setContent(one, { waitUntil: 'load', timeout: 120_000 });
          if (i === documents.length - 1) await laidOut?.();
          parts.push(await page.pdf({ preferCSSPageSize: true, printBackground: true }));
        }
        const pdf = await joinPdfs(parts);
        return { pdf, pages: parts.reduce((n, p) => n + countPdfPages(p), 0) };
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
